/**
 * C2SP tlog-checkpoint bodies: origin line, decimal tree size, base64 root hash, optional extension
 * lines, each ending in a newline. The strict parser refuses every shape the specification forbids,
 * and the origin a trestle table publishes under (docs/SPEC.md §12, decision 0391).
 */
import * as z from "zod";
import { TrestleError, schemaError } from "../errors.js";
import { TableIdSchema } from "../schemas/primitives.js";
import { fromBase64, toBase64 } from "./base64.js";
import { HASH_BYTES } from "./merkle.js";

/** At most this many extension lines; trestle writes none (tlog-checkpoint does not recommend them). */
export const CHECKPOINT_MAX_EXTENSIONS = 16;

/** An origin or extension line is at most this many characters. */
export const CHECKPOINT_MAX_LINE_CHARS = 1024;

const ONE_LINE = /^[^\u0000-\u001f]+$/;

/** A checkpoint line: non-empty, no ASCII control character (signed-note forbids them; the newline ends it). */
const LineSchema = z
  .string()
  .max(CHECKPOINT_MAX_LINE_CHARS)
  .regex(ONE_LINE, "a non-empty line without control characters");

/** The base64 of a 32-byte SHA-256 root: 44 characters, one `=`, canonical tail bits. */
export const RootHashBase64Schema = z
  .string()
  .regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, "base64 of a 32-byte hash");

/** A parsed checkpoint body; `root` stays in its base64 wire form. */
export const CheckpointSchema = z.strictObject({
  origin: LineSchema,
  size: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  root: RootHashBase64Schema,
  extensions: z.array(LineSchema).max(CHECKPOINT_MAX_EXTENSIONS),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** A relay host as a table's origin names it: a lowercase DNS name or IPv4 address, with an optional port. */
export const RelayHostSchema = z
  .string()
  .max(253)
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[1-9][0-9]{0,4})?$/,
    "a lowercase host name with an optional port",
  );

/** The origin (and note key name) of a table's log: `<relay host>/tables/<table id>`; no spaces, no `+`. */
export function tableOrigin(host: string, table: string): string {
  const h = RelayHostSchema.safeParse(host);
  if (!h.success) throw schemaError(h.error.issues, "relay host");
  const t = TableIdSchema.safeParse(table);
  if (!t.success) throw schemaError(t.error.issues, "table id");
  return `${h.data}/tables/${t.data}`;
}

/** The host and table of a trestle table origin, or undefined when the origin is not one. */
export function parseTableOrigin(origin: string): { host: string; table: string } | undefined {
  const cut = origin.indexOf("/tables/");
  if (cut < 0) return undefined;
  const host = RelayHostSchema.safeParse(origin.slice(0, cut));
  const table = TableIdSchema.safeParse(origin.slice(cut + "/tables/".length));
  return host.success && table.success ? { host: host.data, table: table.data } : undefined;
}

/** The checkpoint of a tree: its root as base64, no extension lines. */
export function checkpointOf(origin: string, size: number, root: Uint8Array): Checkpoint {
  if (root.length !== HASH_BYTES) throw new TrestleError("E_SCHEMA", "a root hash is 32 bytes");
  return parsed({ origin, size, root: toBase64(root), extensions: [] });
}

/** The note text of a checkpoint: each line followed by a newline (throws on an invalid checkpoint). */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const c = parsed(checkpoint);
  return [c.origin, String(c.size), c.root, ...c.extensions].map((line) => `${line}\n`).join("");
}

/** A checkpoint from note text; E_SCHEMA for any malformed line, E_TOO_LARGE past the limits. */
export function parseCheckpoint(text: string): Checkpoint {
  if (text.length > (CHECKPOINT_MAX_EXTENSIONS + 3) * (CHECKPOINT_MAX_LINE_CHARS + 1))
    throw new TrestleError("E_TOO_LARGE", "checkpoint text is too long");
  if (!text.endsWith("\n")) throw new TrestleError("E_SCHEMA", "checkpoint text must end with a newline");
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) throw new TrestleError("E_SCHEMA", "a checkpoint has an origin, a size and a root hash line");
  const [origin, sizeLine, root, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9][0-9]*)$/.test(sizeLine))
    throw new TrestleError("E_SCHEMA", "checkpoint tree size must be decimal without leading zeroes");
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) throw new TrestleError("E_TOO_LARGE", "checkpoint tree size is past 2^53 − 1");
  return parsed({ origin, size, root, extensions });
}

/** The root hash bytes of a checkpoint (32 bytes). */
export function checkpointRoot(checkpoint: Checkpoint): Uint8Array {
  return fromBase64(checkpoint.root);
}

function parsed(value: unknown): Checkpoint {
  const result = CheckpointSchema.safeParse(value);
  if (!result.success) throw schemaError(result.error.issues, "checkpoint");
  return result.data;
}
