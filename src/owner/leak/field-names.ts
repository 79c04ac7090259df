/**
 * The field names the protocol defines for a submission (read from SubmissionSchema's JSON Schema),
 * the only keys a refusal's path may spell out: any other key (one inside effect args, a receipt's
 * result, or a key the check found a secret in) is named by its position, so a refusal never
 * writes down what it refused (docs/ROOMS.md "never_disclose").
 */
import { z } from "zod";
import { SubmissionSchema } from "../../protocol/index.js";

let names: Set<string> | null = null;

/** Every property name in SubmissionSchema at any depth, plus `reveals` (what a commit will reveal, checked with it). */
export function protocolFieldNames(): ReadonlySet<string> {
  if (names) return names;
  const found = new Set<string>(["reveals"]);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "properties" && typeof value === "object" && value !== null)
          for (const name of Object.keys(value)) found.add(name);
        walk(value);
      }
    }
  };
  walk(z.toJSONSchema(SubmissionSchema, { unrepresentable: "any", io: "input" }));
  names = found;
  return found;
}
