/**
 * The witness policy a command enforces and how it reports it (docs/CLIENT.md, SPEC §12): the
 * --witness keys and --witness-k of the command line, or the table config's witnesses, and the
 * line saying who cosigned a checkpoint, shared by `verify --proof`, `verify <table>` and `checkpoint`.
 */
import { witnessName, type Witnesses } from "../protocol/schemas/witnesses.js";
import { witnessPolicy, type WitnessedBy } from "../protocol/tlog/entry-proof.js";
import type { NoteSignature } from "../protocol/tlog/note.js";
import { integer, optional, type Flags } from "./args.js";
import type { Context } from "./context.js";
import { UsageError } from "./exit.js";

/** The --witness and --witness-k flags. */
export const WITNESS_FLAGS: Flags = {
  witness: {
    type: "string",
    value: "KEY,…",
    help: "witness cosignature keys (tlog-cosignature) to count on the checkpoint",
  },
  "witness-k": { type: "string", value: "K", help: "how many of the --witness keys must have cosigned (default: all)" },
};

/** A witness policy: the cosignature verifier keys counted and how many must have cosigned. */
export interface WitnessRule {
  keys: string[];
  k: number;
}

/** The policy of --witness KEY,… and --witness-k K (default: every key), else the config's `witnesses` when given, else none (no keys, k 0). */
export function witnessRule(ctx: Context, config?: Witnesses): WitnessRule {
  const keys = (optional(ctx.args, "witness") ?? "").split(",").filter((key) => key !== "");
  if (keys.length === 0 && config && ctx.args.values["witness-k"] === undefined)
    return { keys: config.list.map((w) => w.key), k: config.k };
  const k = integer(ctx.args, "witness-k", keys.length)!;
  if (k > keys.length) throw new UsageError(`--witness-k ${k} is more than the ${keys.length} --witness keys given`);
  return { keys, k };
}

/** The witnesses of `rule` whose cosignature on `note` verifies, whether the policy is met, and the line saying so. */
export async function witnessReport(
  opened: { others: readonly NoteSignature[] },
  note: string,
  rule: WitnessRule,
): Promise<{ witnessed: WitnessedBy[]; met: boolean; line: string }> {
  const policy = await witnessPolicy(opened, note, rule.keys, rule.k);
  const others = opened.others.map((s) => s.name);
  const witnessed = policy.witnessed.map((w) => `${w.name} (at ${new Date(w.time * 1000).toISOString()})`);
  const line =
    rule.keys.length > 0
      ? `witnessed by ${policy.witnessed.length} of ${rule.keys.length} (policy: ${rule.k} of ${rule.keys.length})${witnessed.length > 0 ? `: ${witnessed.join(", ")}` : ""}`
      : `other signatures on the checkpoint (give --witness keys to check them): ${others.length > 0 ? others.join(", ") : "none"}`;
  return { ...policy, line };
}

/** What `verify` adds for a table whose config names witnesses: the list and policy and, when the relay's checkpoint was read, who cosigned it at which size; read through a mirror, the relay holding the table instead. */
export interface TableWitnesses {
  k: number;
  list: { name: string; key: string; url: string }[];
  checkpoint?: { size: number; witnessed: WitnessedBy[]; met: boolean };
  mirror_of?: { relay: string; url?: string };
}

/** The relay's checkpoint as read now: its signed note, its tree size, and the signatures on it besides the relay's. */
export interface CheckpointRead {
  note: string;
  size: number;
  others: readonly NoteSignature[];
}

/** A table read through a relay (`mirror`, its URL) that only mirrors it: no checkpoint there; the key of the relay holding it, and its URL when this home pinned one to that key. */
export interface MirroredFrom {
  table: string;
  mirror: string;
  relay: string;
  url?: string;
}

/**
 * The lines and JSON of `verify` for the config's `witnesses`; `read` is the relay's checkpoint now (online), checked against
 * --witness/--witness-k or else the config's policy, or the relay holding the table when the relay read only mirrors it.
 */
export async function tableWitnesses(
  ctx: Context,
  witnesses: Witnesses,
  read?: CheckpointRead | MirroredFrom,
): Promise<{ lines: string[]; json: TableWitnesses }> {
  const list = witnesses.list.map((w) => ({ name: witnessName(w), key: w.key, url: w.url }));
  const lines = [
    `witnesses named by the config (policy: ${witnesses.k} of ${list.length}): ${list.map((w) => `${w.name} <${w.url}>`).join(", ")}`,
  ];
  if (!read)
    return {
      lines: [...lines, "check who cosigned its checkpoint online: trestle checkpoint --table <id>"],
      json: { k: witnesses.k, list },
    };
  if ("mirror" in read) {
    const where = `trestle checkpoint --table ${read.table} --relay ${read.url ?? "<its URL>"}`;
    lines.push(
      `relay ${read.mirror} only mirrors the table and serves no checkpoint: read it where relay ${read.relay} holds the table: ${where}`,
    );
    return {
      lines,
      json: {
        k: witnesses.k,
        list,
        mirror_of: { relay: read.relay, ...(read.url === undefined ? {} : { url: read.url }) },
      },
    };
  }
  const policy = await witnessReport(read, read.note, witnessRule(ctx, witnesses));
  lines.push(`the relay's checkpoint at size ${read.size}: ${policy.line}`);
  return {
    lines,
    json: { k: witnesses.k, list, checkpoint: { size: read.size, witnessed: policy.witnessed, met: policy.met } },
  };
}
