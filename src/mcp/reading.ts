/**
 * Reading a seat's projection for the model, shared by `trestle_read`, `trestle_wait` and the
 * seat's resource, from a read state (session.ts ReadState: the session's own on 2025-11-25, or
 * the `cursor` and `prefix_sha256` a call passes): the prefix (rules, seats, decisions) is sent on
 * the first read and again only when `prefix_sha256` changes; the tail only from the cursor on,
 * capped so one result stays readable (the rest comes with the next read). The result names the
 * cursor and prefix hash to pass next time.
 */
import { frameInert, safeLine, type InertItem } from "../text/framing.js";
import { z } from "zod";
import {
  holdersText,
  SeatNameSchema,
  Sha256Schema,
  TableIdSchema,
  type Projection,
  type ProjectedEntry,
} from "../protocol/index.js";
import { entryItem, prefixItems } from "../text/projection-items.js";
import { openedProjection } from "../owner/index.js";
import type { ReadState } from "./session.js";
import type { ToolContext, ToolReply } from "./tool.js";

/** At most this many characters of entry bodies go into one result. */
const BODY_BUDGET = 60_000;

/** A projection fetched for the seat, not yet delivered to the model. */
export interface View {
  table: string;
  seat: string;
  projection: Projection;
}

/** The read state of a call: the session's (advanced by the read), with what the call passed put over it; everything again when `fromStart`. */
export function readStateFor(
  ctx: ToolContext,
  table: string,
  given: { cursor?: number | undefined; prefix_sha256?: string | undefined; from_start?: boolean | undefined },
): ReadState {
  const state = ctx.session.readState(table);
  if (given.cursor !== undefined) state.cursor = given.cursor;
  if (given.prefix_sha256 !== undefined) state.prefix = given.prefix_sha256;
  if (given.from_start === true) {
    state.cursor = 0;
    state.prefix = null;
  }
  return state;
}

/** Fetches the seat's projection after `state`'s cursor, opened in an e2e room whose key the home holds. */
export async function fetchView(ctx: ToolContext, table: string, state: ReadState): Promise<View> {
  const { session } = ctx;
  const client = await session.client(table);
  const seat = await session.seatKey();
  const projection = await openedProjection(
    session.settings.home,
    table,
    await client.projection({ signer: seat.signer, as: { seat: seat.name } }, state.cursor),
  );
  return { table, seat: seat.name, projection };
}

/** Why `trestle_wait` should return now, or null: the table closed, the seat holds the floor, or another seat's entry is new. */
export function wakeReason(view: View): string | null {
  const { projection: p, seat } = view;
  if (p.closed !== null) return `the table is closed (${p.closed})`;
  if (p.floor.yours) return "you hold the floor";
  const news = p.tail.filter((e) => e.seat !== seat && !(e.kind === "system" && e.subkind === "floor"));
  return news.length > 0 ? `${news.length} new ${news.length === 1 ? "entry" : "entries"} from the table` : null;
}

/** Delivers `view` to the model: advances `state`, and builds the reply with `lead` status lines first, naming the cursor and prefix hash to pass next. */
export function deliver(
  ctx: ToolContext,
  view: View,
  limit: number,
  state: ReadState,
  lead: readonly string[] = [],
): ToolReply {
  const { projection: p, seat, table } = view;
  const sendPrefix = state.prefix !== p.prefix_sha256;
  const firstRead = state.prefix === null;
  const { shown, rest } = cap(p.tail, limit);
  const cursor = rest > 0 ? shown[shown.length - 1]!.seq : p.cursor;
  state.cursor = cursor;
  state.prefix = p.prefix_sha256;
  const more = rest > 0 || p.more;
  const status = [
    ...lead,
    `table ${table}: you are seat ${seat}.`,
    floorLine(p),
    ...(p.pauses.length > 0
      ? [
          `The table is paused by ${holdersText(p.pauses)}: every write is refused (E_PAUSED) until each of them lifts their own pause; trestle_wait meanwhile.`,
        ]
      : []),
    ...taskLines(p, seat),
    `${shown.length} new ${shown.length === 1 ? "entry" : "entries"} below; read up to #${cursor}.${more ? " More follow: call trestle_read again." : ""}${ctx.session.stateless ? ` Next time pass cursor ${cursor} and prefix_sha256 ${p.prefix_sha256} (this connection remembers no read).` : ""}`,
    sendPrefix
      ? `The table's prefix (topic, rules, seats and their cards, decisions in force) is below: ${firstRead ? "first read" : "it changed since your last read"}.`
      : `The prefix is unchanged since your last read (sha256 ${p.prefix_sha256.slice(0, 12)}…), so it is not repeated.`,
  ].map((line) => safeLine(line, 2000));
  const items: InertItem[] = [
    ...(sendPrefix ? prefixItems(p.prefix, seat) : []),
    ...shown.map((e) => entryItem(e, seat)),
  ];
  return {
    status,
    owner: sendPrefix ? ctx.session.instructions() : null,
    data: items.length > 0 ? frameInert(items, ctx.boundary()) : null,
    structured: {
      table,
      seat,
      cursor,
      prefix_sha256: p.prefix_sha256,
      entries: shown.length,
      more,
      floor: p.floor.holder,
      closed: p.closed !== null,
    },
  };
}

function floorLine(p: Projection): string {
  if (p.closed !== null)
    return `The table is closed (${p.closed}); only task work (progress, receipt, verify) is still admitted.`;
  if (p.prefix.rules.topology.kind === "open") return "Open table: any seated seat may write at any time.";
  if (p.floor.yours) return `You hold the floor (round ${p.floor.round}): say, pass, propose or decide now.`;
  return p.floor.holder === null
    ? `Nobody holds the floor (round ${p.floor.round}).`
    : `${p.floor.holder} holds the floor (round ${p.floor.round}); trestle_wait until it is your turn.`;
}

function taskLines(p: Projection, seat: string): string[] {
  if (p.tasks.length === 0) return [];
  const owner = p.prefix.seats.find((s) => s.name === seat)?.owner;
  const lines = [
    `Open tasks: ${p.tasks.map((t) => `${t.id} ${t.state} (proposal #${t.proposal}${t.executor ? `, executor ${t.executor}` : ""})`).join("; ")}.`,
  ];
  const mine = p.tasks.filter((t) => t.executor === seat && (t.state === "running" || t.state === "stalled"));
  if (mine.length > 0)
    lines.push(`You execute: ${mine.map((t) => t.id).join(", ")} (report with trestle_progress and trestle_receipt).`);
  const waiting = p.tasks.filter((t) => t.state === "awaiting_approval");
  const yours = waiting.filter((t) => t.owner === owner);
  if (yours.length > 0)
    lines.push(
      `Awaiting YOUR owner's approval: ${yours.map((t) => t.id).join(", ")}. Only they decide: trestle_approve or trestle_reject asks them in person.`,
    );
  const others = waiting.filter((t) => t.owner !== owner);
  if (others.length > 0)
    lines.push(`Awaiting other owners' approval: ${others.map((t) => `${t.id} (owner ${t.owner})`).join(", ")}.`);
  return lines;
}

function cap(tail: readonly ProjectedEntry[], limit: number): { shown: ProjectedEntry[]; rest: number } {
  let budget = BODY_BUDGET;
  const shown: ProjectedEntry[] = [];
  for (const entry of tail) {
    const size = entry.body?.length ?? 0;
    if (shown.length >= limit || (shown.length > 0 && size > budget)) break;
    shown.push(entry);
    budget -= size;
  }
  return { shown, rest: tail.length - shown.length };
}

/** The structured result of a read: where, as whom, the cursor and prefix hash to pass next, how many entries came, whether more follow, the floor, closed. */
export const ReadOutput = z.object({
  table: TableIdSchema,
  seat: SeatNameSchema,
  cursor: z.int().min(0).describe("the seq read up to: pass it as cursor next time"),
  prefix_sha256: Sha256Schema.describe("the prefix this result is against: pass it as prefix_sha256 next time"),
  entries: z.int().min(0),
  more: z.boolean().describe("more entries follow: read again"),
  floor: SeatNameSchema.nullable().describe("who holds the floor"),
  closed: z.boolean(),
});
