/**
 * Which room kinds a seat writes with only the room's common fields, read from the kinds'
 * schemas (decision 0388): at most one offer or grant it names, terms, and an expiry. Their CLI
 * verb and MCP tool are derived from this (src/cli/commands/room-write.ts,
 * src/mcp/tools/room-write.ts), so such a kind is written in its schema, its policy module, the
 * registry and its words; a kind with fields of its own also has its verb and tool written out.
 * Pure.
 */
import type { DistributiveOmit, SubmissionInput } from "../schemas/entry.js";
import { AuthoredFields } from "../schemas/primitives.js";
import { ROOM_SUBMISSIONS, type RoomKind, type Terms } from "../schemas/room.js";

type Envelope = keyof typeof AuthoredFields | "kind" | "body";
type Common = "offer" | "grant" | "terms" | "expires";
type Written<K extends RoomKind> = Extract<SubmissionInput, { kind: K }>;

/** The room kinds whose submission has no field but an offer or grant it names, terms and an expiry. */
export type CommonKind = {
  [K in RoomKind]: [Exclude<keyof Written<K>, Envelope | Common>] extends [never] ? K : never;
}[RoomKind];

/** What a common kind's write takes: the offer or grant it must name (null: none), whether it must carry terms, whether it may carry an expiry. */
export interface CommonFields {
  readonly ref: "offer" | "grant" | null;
  readonly terms: boolean;
  readonly expires: boolean;
}

const ENVELOPE: readonly string[] = [...Object.keys(AuthoredFields), "kind", "body"];
const COMMON: readonly string[] = ["offer", "grant", "terms", "expires"];

/** The fields of `kind`'s write when it takes only common fields, else null (read from its schema; the type CommonKind says the same). */
function fieldsOf(kind: RoomKind): CommonFields | null {
  const schema = ROOM_SUBMISSIONS.find((s) => s.shape.kind.value === kind);
  if (!schema) return null;
  const shape: Record<string, { isOptional(): boolean }> = schema.shape;
  const fields = Object.keys(shape).filter((name) => !ENVELOPE.includes(name));
  if (fields.some((name) => !COMMON.includes(name))) return null;
  const required = (name: string) => fields.includes(name) && !shape[name]!.isOptional();
  return {
    ref: required("offer") ? "offer" : required("grant") ? "grant" : null,
    terms: required("terms"),
    expires: fields.includes("expires"),
  };
}

/** Whether `kind`'s write takes only common fields (its verb and tool are derived). */
export function isCommonKind(kind: RoomKind): kind is CommonKind {
  return fieldsOf(kind) !== null;
}

/** The fields common kind `kind`'s write takes. */
export function commonFields(kind: CommonKind): CommonFields {
  const fields = fieldsOf(kind);
  if (!fields) throw new TypeError(`${kind} takes fields of its own`);
  return fields;
}

/** What a seat writes for common kind `kind` (the message aside): the offer or grant it names, its terms and expiry, as its fields say, in its schema's order. */
export function commonWrite<K extends CommonKind>(
  kind: K,
  values: { ref?: string; terms?: Terms; expires?: number },
): DistributiveOmit<Written<K>, "table" | "seat" | "nonce"> {
  const { ref, terms, expires } = commonFields(kind);
  const write = {
    kind,
    ...(ref === null ? {} : { [ref]: values.ref }),
    ...(terms ? { terms: values.terms } : {}),
    ...(expires && values.expires !== undefined ? { expires: values.expires } : {}),
  };
  // The kind's schema has no other field (CommonKind); the seat's send parses the whole submission.
  return write as DistributiveOmit<Written<K>, "table" | "seat" | "nonce">;
}
