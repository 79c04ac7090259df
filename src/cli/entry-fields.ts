/**
 * The optional fields of an entry a seat writes (docs/SPEC.md §3.1), each with the flags that set
 * it and how it is read from them, so every writing verb declares and parses a field the same way.
 */
import { integer, type Flags, type Parsed } from "./args.js";
import { effectsFromFlags } from "./effects.js";
import { UsageError } from "./exit.js";

/** A field a writing verb may carry. */
export type EntryField = "to" | "re" | "refs" | "budget" | "effects" | "task" | "result";

const FIELD_FLAGS: Record<EntryField, Flags> = {
  to: { to: { type: "string", value: "SEATS", help: "comma-separated seats this is addressed to" } },
  re: { re: { type: "string", value: "SEQ", help: "the entry this answers" } },
  refs: {
    ref: {
      type: "string",
      multiple: true,
      value: "REF",
      help: "a reference: entry:<seq>, task:<id>, table:<id> or https://… (repeatable)",
    },
  },
  budget: {
    tokens: { type: "string", value: "N", help: "tokens spent producing this entry (counts toward budget_tokens)" },
  },
  effects: {
    effect: {
      type: "string",
      multiple: true,
      value: "EFFECT",
      help: "an action on an owner's resource: owner:resource:action[:{json args}] (repeatable)",
    },
    effects: {
      type: "string",
      value: "FILE",
      help: "effects from a JSON file: an array of { owner, resource, action, args }",
    },
  },
  task: { task: { type: "string", value: "ID", help: "the task, <seq>.<owner> (trestle tasks lists them)" } },
  result: {
    result: { type: "string", value: "JSON", help: "what was done, as a JSON object recorded with the receipt" },
  },
};

/** The flags that set `fields`. */
export function fieldFlags(fields: readonly EntryField[]): Flags {
  return Object.assign({}, ...fields.map((f) => FIELD_FLAGS[f])) as Flags;
}

/** The submission's fields among `fields` read from the flags; a listed `task` is required. */
export function readFields(args: Parsed, fields: readonly EntryField[]): Record<string, unknown> {
  const v = args.values;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    switch (field) {
      case "to":
        if (typeof v.to === "string")
          out.to = v.to
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
        break;
      case "re":
        if (v.re !== undefined) out.re = integer(args, "re");
        break;
      case "refs":
        if (Array.isArray(v.ref) && v.ref.length > 0) out.refs = v.ref;
        break;
      case "budget":
        if (v.tokens !== undefined) out.budget = { tokens: integer(args, "tokens") };
        break;
      case "effects": {
        const effects = effectsFromFlags(v);
        if (effects) out.effects = effects;
        break;
      }
      case "task":
        if (typeof v.task !== "string")
          throw new UsageError("--task is required (trestle tasks lists the table's tasks)");
        out.task = v.task;
        break;
      case "result":
        if (typeof v.result === "string") out.result = jsonObject(v.result);
        break;
    }
  }
  return out;
}

function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError("--result must be JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError("--result must be a JSON object");
  return value as Record<string, unknown>;
}
