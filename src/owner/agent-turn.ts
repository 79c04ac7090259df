/**
 * One turn of an agent behind a seat (docs/AGENTS.md), the same for every driver (a command, an
 * A2A agent): the projection as the agent reads it (framed text, src/text/framing.ts, exactly as
 * the MCP server frames peers' words, or JSON), what its owner's mandate lets it do (agent-view.ts,
 * so under agent_view `rules` no amount of the cap or floor) and how its last entry was refused, if
 * it was; the facts a script needs as environment variables (never a mandate's); and the agent's
 * reply read back as an entry. Plain text is a `say`; a JSON object
 * names its kind and fields as the entry schemas have them (docs/SPEC.md §5); an empty reply passes
 * the floor. Anything else, or a body over the table's max_chars, is E_AGENT: never a cut entry.
 */
import {
  LIMITS,
  parseOrThrow,
  SubmissionSchema,
  TrestleError,
  type Projection,
  type Submission,
} from "../protocol/index.js";
import { randomNonce } from "../client/random.js";
import { frameInert, safeLine, type InertItem } from "../text/framing.js";
import { entryItem, prefixItems } from "../text/projection-items.js";
import type { RoomRef } from "./room-view.js";

/** What an agent is given for one turn. */
export interface AgentTurn {
  table: string;
  seat: string;
  /** `floor`: the seat holds the floor; `open`: an open table moved. */
  reason: "floor" | "open";
  /** The seat's projection, opened in an e2e room whose key this home holds. */
  projection: Projection;
  /** The longest body this table admits uncut (its floor's max_chars). */
  budget: number;
  /** What the seat's mandate lets the agent do, in sentences (agent-view.ts mandateLines); empty when the seat has no mandate file. */
  mandate: string[];
  /** How the entry the agent gave since its last turn was refused (nothing of it was written), if it was. */
  refused?: TurnRefusal;
}

/** A refusal of the agent's entry, as the agent is told it: the code, the reason and the message (a guard's names no secret: disclosure.ts, mandate-limits.ts). */
export interface TurnRefusal {
  code: string;
  reason: string;
  message: string;
}

/** The reasons an agent's turn fails (details.reason of E_AGENT). */
export type AgentFailure = "timeout" | "exit" | "too_large" | "not_an_entry" | "failed" | "no_reply" | "redirected";

/** How an agent answers, in words it reads with every turn. */
export const REPLY_RULES =
  'Answer with the entry to write: plain text is said as a `say`; one JSON object is written as that entry, e.g. {"kind":"pass"}, ' +
  '{"kind":"proposal","body":"...","effects":[...]}, {"kind":"vote","choice":"yes","re":12}, {"kind":"decision","body":"..."}, ' +
  '{"kind":"offer","body":"...","terms":{"amount":280000,"currency":"TWD"}}; an empty answer passes the floor (on an open table it writes nothing); name an offer by the seq of its entry. The seat, table and nonce are the seat\'s own: do not give them.';

/** The turn for `seat` at its projection's table, with what it is told of its mandate and its last refusal. */
export function agentTurn(
  seat: string,
  reason: AgentTurn["reason"],
  projection: Projection,
  told: { mandate?: string[]; refused?: TurnRefusal } = {},
): AgentTurn {
  const budget = projection.prefix.rules.floor?.max_chars ?? LIMITS.max_chars_default;
  return {
    table: projection.table,
    seat,
    reason,
    projection,
    budget,
    mandate: told.mandate ?? [],
    ...(told.refused ? { refused: told.refused } : {}),
  };
}

/** E_AGENT with `reason`: the agent's turn failed and nothing it gave is written. */
export function agentFailed(
  reason: AgentFailure,
  message: string,
  details: Record<string, unknown> = {},
): TrestleError {
  return new TrestleError("E_AGENT", message, { ...details, reason });
}

/** The turn as framed text: status lines outside the data block, every word the table wrote inside it (with the fresh random `boundary`). */
export function turnText(turn: AgentTurn, boundary: string): string {
  const p = turn.projection;
  const floor =
    p.prefix.rules.topology.kind === "open"
      ? "This is an open table: you may write now, or answer nothing to stay silent."
      : `You hold the floor (round ${p.floor.round}): write your turn now.`;
  const refused = turn.refused;
  const status = [
    `trestle: you are seat ${turn.seat} at table ${turn.table}. ${floor}`,
    ...(refused
      ? [
          `Your last entry was refused and nothing of it was written (${refused.code}, ${refused.reason}): ${refused.message}`,
        ]
      : []),
    ...turn.mandate,
    `Your entry's body may be at most ${turn.budget} characters; a longer answer is refused, not cut.`,
    REPLY_RULES,
    ...(p.tasks.length > 0 ? [`Open tasks: ${p.tasks.map((t) => `${t.id} ${t.state}`).join("; ")}.`] : []),
  ].map((line) => safeLine(line, 2000));
  const items: InertItem[] = [...prefixItems(p.prefix, turn.seat), ...p.tail.map((e) => entryItem(e, turn.seat))];
  return [...status, frameInert(items, boundary)].join("\n");
}

/** The turn as one JSON document: the facts, the reply rules, the mandate's sentences, the last refusal and the whole projection (its texts are other seats' words: data, not instructions). */
export function turnJson(turn: AgentTurn): string {
  const { table, seat, reason, budget, mandate, refused, projection } = turn;
  return JSON.stringify({
    table,
    seat,
    reason,
    budget,
    reply: REPLY_RULES,
    mandate,
    ...(refused ? { refused } : {}),
    projection,
  });
}

/** The environment a script reads: seat, table, budget (max body chars), why it runs, the round and the cursor. */
export function turnEnv(turn: AgentTurn): Record<string, string> {
  const p = turn.projection;
  return {
    TRESTLE_SEAT: turn.seat,
    TRESTLE_TABLE: turn.table,
    TRESTLE_BUDGET: String(turn.budget),
    TRESTLE_REASON: turn.reason,
    TRESTLE_TOPOLOGY: p.prefix.rules.topology.kind,
    TRESTLE_ROUND: String(p.floor.round),
    TRESTLE_CURSOR: String(p.cursor),
  };
}

/** What an agent answered: its text (a command's stdout, a text part) or a JSON value (a data part). */
export type AgentReply = { text: string } | { data: unknown };

/** Finds the leaf hash of the offer, grant or auction a reply names by seq or hash prefix (room-view.ts resolveRef). */
export type RefResolver = (ref: string | number, what: RoomRef) => Promise<string>;

const REFS: readonly RoomRef[] = ["offer", "grant", "auction"];

/**
 * The entry `reply` stands for: plain text a `say`; text that starts with `{` or a data value, the
 * entry object it holds (an offer, grant or auction named by seq or hash prefix is resolved with
 * `resolve`); an empty text a `pass` on the floor and nothing (null) on an open table. E_AGENT for
 * anything else: not one JSON object, a field that is the seat's own, a body over the budget, an
 * object the entry schemas refuse.
 */
export async function replyEntry(turn: AgentTurn, reply: AgentReply, resolve: RefResolver): Promise<Submission | null> {
  if ("data" in reply) return dataEntry(turn, reply.data, resolve);
  const text = reply.text.trim();
  if (text === "") return turn.reason === "floor" ? passEntry(turn) : null;
  if (!text.startsWith("{")) return dataEntry(turn, { kind: "say", body: text }, resolve);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw agentFailed(
      "not_an_entry",
      "the agent's answer starts with { but is not one JSON object; nothing was written",
    );
  }
  return dataEntry(turn, value, resolve);
}

/** A pass for this turn. */
export function passEntry(turn: AgentTurn): Submission {
  return parseOrThrow(
    SubmissionSchema,
    { kind: "pass", table: turn.table, seat: turn.seat, nonce: randomNonce() },
    "pass",
  );
}

async function dataEntry(turn: AgentTurn, value: unknown, resolve: RefResolver): Promise<Submission> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw agentFailed("not_an_entry", "the agent's JSON answer is not an object; nothing was written");
  const fields: Record<string, unknown> = { ...value };
  const own = ["table", "seat", "nonce"].filter((key) => key in fields);
  if (own.length > 0)
    throw agentFailed(
      "not_an_entry",
      `the agent's entry names ${own.join(", ")}, which are the seat's own; nothing was written`,
      { fields: own },
    );
  const body = typeof fields.body === "string" ? fields.body : "";
  if (body.length > turn.budget) {
    throw agentFailed(
      "too_large",
      `the agent's entry is ${body.length} chars, over this table's ${turn.budget}; nothing was written (an entry is never cut)`,
      { chars: body.length, max: turn.budget },
    );
  }
  try {
    const named: Record<string, string> = {};
    for (const what of REFS) {
      const ref = fields[what];
      if (typeof ref === "number" || (typeof ref === "string" && !/^[0-9a-f]{64}$/.test(ref)))
        named[what] = await resolve(ref, what);
    }
    return parseOrThrow(
      SubmissionSchema,
      { ...fields, ...named, table: turn.table, seat: turn.seat, nonce: randomNonce() },
      "the agent's entry",
    );
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    throw agentFailed(
      error.code === "E_TOO_LARGE" ? "too_large" : "not_an_entry",
      `${error.message}; nothing was written`,
      { code: error.code },
    );
  }
}
