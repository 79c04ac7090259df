/**
 * The two chat commands that speak for the owner to its own seats (decision 0413): `/answer <ref>
 * <text>` answers the question whose message names that ref (question.ts), and `/instruct
 * <seat>[@<table>] <text>` instructs one of the owner's seats. The text is everything after the
 * command's first words, kept as written (the table checks its length); the ref, seat and table
 * are matched against strict patterns, and a command that does not match says how to use it.
 */

/** The owner's words to its seats: answers the question `ref` names, or instructs the owner's seat (at `table` when named); null ref or seat: the arguments did not match, say how. */
export type OwnerCommand =
  | { name: "answer"; ref: string | null; text: string }
  | { name: "instruct"; seat: string | null; table: string | null; text: string };

const REF = /^[A-Za-z0-9_-]{16}$/;
const SEAT_AT_TABLE = /^([a-z0-9][a-z0-9._-]{0,63})(?:@([a-z0-9][a-z0-9._-]{2,63}))?$/;

/** `/answer` or `/instruct` with its arguments, a usage-only form (null fields) when they do not match, or null for any other text. */
export function parseOwnerCommand(text: string): OwnerCommand | null {
  const match = /^\s*\/(answer|instruct)(?:@[A-Za-z0-9_]+)?(?:\s+(\S+))?(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return null;
  const arg = match[2] ?? "";
  const rest = (match[3] ?? "").trim();
  if (match[1]!.toLowerCase() === "answer")
    return { name: "answer", ref: REF.test(arg) && rest !== "" ? arg : null, text: rest };
  const target = SEAT_AT_TABLE.exec(arg);
  return target && rest !== ""
    ? { name: "instruct", seat: target[1]!, table: target[2] ?? null, text: rest }
    : { name: "instruct", seat: null, table: null, text: rest };
}

/** A Discord `/answer` or `/instruct` slash command from its named options, or null for another command. */
export function ownerCommandOf(name: string | undefined, option: (name: string) => string): OwnerCommand | null {
  if (name === "answer") return parseOwnerCommand(`/answer ${option("code")} ${option("text")}`);
  if (name !== "instruct") return null;
  const table = option("table");
  return parseOwnerCommand(`/instruct ${option("seat")}${table === "" ? "" : `@${table}`} ${option("text")}`);
}
