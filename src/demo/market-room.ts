/**
 * One match's room in the market scenario: one side opens it from the match and the other joins it
 * as the match's other side (no invite, no code; each room seat carrying its market seat's mandate,
 * src/owner/market-rooms.ts); the two scripted agents (haggler.ts) take turns, each given exactly
 * what trestle gives any agent (the projection, its mandate's sentences, its last refusal:
 * src/owner/agent-turn.ts) and each answer written through its owner's guards; an answer a guard
 * refuses is told to the same agent at once, which answers again. A deal is signed by both owners
 * with their owner keys, the seller closes the room with it and the market records it; an agent
 * that gives up closes the room without one. Every turn each agent was given is kept for the checks.
 */
import { MarketClient, type TableClient } from "../client/index.js";
import {
  agentTurn,
  dealIn,
  enterMatchRoom,
  GuardedSeat,
  mandateLines,
  replyEntry,
  resolveRef,
  roomState,
  signDeal,
  type AgentTurn,
  type TurnRefusal,
} from "../owner/index.js";
import { dealStatus, TrestleError, type Entry, type Submission } from "../protocol/index.js";
import { majorUnits } from "../text/terms.js";
import { DemoError } from "./errors.js";
import { Haggler } from "./haggler.js";
import type { CastRoom, Member } from "./market-cast.js";
import { tableAt, type MemberMachine } from "./market-member.js";
import type { DemoRelay } from "./relay.js";
import { ShownLedger, type EntryNote } from "./shown-ledger.js";
import type { CliRun } from "./trestle-cli.js";
import type { Transcript } from "./transcript.js";

/** A guard's refusal of something a seat tried, as the demo saw it. */
export interface GuardRefusal {
  owner: Member;
  table: string;
  kind: string;
  reason: string;
  message: string;
}

/** How one room went, for the checks. */
export interface PlayedRoom {
  room: string;
  match: number;
  /** The titles of the match's offer and want. */
  offer: string;
  want: string;
  opener: Member;
  joiner: Member;
  seller: Member;
  buyer: Member;
  outcome: string | null;
  /** The accepted price, or null. */
  price: number | null;
  /** The deal's status as the room's verified ledger folds it (`done` once both owners signed), or null. */
  dealStatus: string | null;
  /** The market's deal_recorded entry for this room, or null. */
  recorded: number | null;
  refusals: readonly GuardRefusal[];
  /** Every turn each side's agent was given. */
  turns: Record<"seller" | "buyer", AgentTurn[]>;
  /** The room's export, as its opener reads it (every entry). */
  exportText: string;
}

/** What a room needs: the relay, the market, the two members' machines, and how the opener enters (the first room through the CLI, to show the command). */
export interface RoomPlay {
  relay: DemoRelay;
  market: string;
  match: number;
  cast: CastRoom;
  seller: MemberMachine;
  buyer: MemberMachine;
  /** When given, the opener runs `trestle market room` on its machine instead of the library call. */
  openWithCli?: (m: MemberMachine, args: string[]) => Promise<CliRun>;
  /** When given, the buyer signs the deal with `trestle deal sign` on its machine. */
  signWithCli?: (m: MemberMachine, args: string[]) => Promise<CliRun>;
  /** Print the room's joins and opening (else only the negotiation). */
  full: boolean;
}

/** One side of the room. */
interface Side {
  m: MemberMachine;
  seat: GuardedSeat;
  client: TableClient;
  agent: Haggler;
  turns: AgentTurn[];
}

/** What a guard's refusal in a room shows, by its reason. */
const REFUSAL_NOTES: Partial<Record<string, string>> = {
  floor: "the guard holds the floor; its words name none",
  allowance: "one allowance counts every room: this one did not know what the others spent",
};

/** The most turns a room may take before the demo calls it a failure. */
const MAX_TURNS = 16;

/** Plays one match's room to its end; throws DemoError when a step the story needs does not happen. */
export async function playMatchRoom(t: Transcript, p: RoomPlay): Promise<PlayedRoom> {
  const [opener, joiner] = p.cast.opener === "seller" ? [p.seller, p.buyer] : [p.buyer, p.seller];
  const room = await enter(t, p, opener, "opened");
  await enter(t, p, joiner, "joined");
  const sides = await Promise.all(
    (
      [
        [p.seller, p.cast.seller],
        [p.buyer, p.cast.buyer],
      ] as const
    ).map(async ([m, script]): Promise<Side> => {
      const client = await tableAt(m, p.relay, room);
      return {
        m,
        client,
        seat: new GuardedSeat({ client, seat: m.seat, signer: m.seatKey.signer, home: m.home }),
        agent: new Haggler(script),
        turns: [],
      };
    }),
  );
  const [seller, buyer] = sides as [Side, Side];
  const view = new ShownLedger(sides.find((s) => s.m === opener)!.client, opener.reader);
  await view.show(t, openingNote(p, opener, joiner));

  const refusals: GuardRefusal[] = [];
  const last = await negotiate(t, [seller, buyer], view, refusals, p.full);
  let recorded: number | null = null;
  if (last.kind === "accept") {
    await signBoth(t, p, seller, buyer, last.offer);
    await seller.seat.send({ kind: "close", outcome: "deal", offer: last.offer, body: "Deal, thank you!" });
    await view.show(t, dealNote);
    const record = await new MarketClient(await tableAt(p.seller, p.relay, p.market)).recordDeal(room, p.seller.reader);
    recorded = record.seq;
  }
  const state = roomState(await seller.seat.transcript());
  const outcome = state.room?.outcome ?? null;
  const accepted = outcome?.offer ? state.room!.offers[outcome.offer] : undefined;
  const deal = last.kind === "accept" ? dealIn(state, last.offer) : null;
  const { text } = await view.client.exportLedger(opener.reader);
  return {
    room,
    match: p.match,
    offer: p.cast.offer,
    want: p.cast.want,
    opener: opener.name,
    joiner: joiner.name,
    seller: p.seller.name,
    buyer: p.buyer.name,
    outcome: outcome?.outcome ?? null,
    price: accepted?.terms.amount ?? null,
    dealStatus: deal ? dealStatus(deal) : null,
    recorded,
    refusals,
    turns: { seller: seller.turns, buyer: buyer.turns },
    exportText: text,
  };
}

/** `m` opens the match's room (`how` opened) or joins it as the other side, its market seat's mandate carried; returns the room's id. */
async function enter(t: Transcript, p: RoomPlay, m: MemberMachine, how: "opened" | "joined"): Promise<string> {
  if (p.openWithCli && how === "opened") {
    const args = ["market", "room", String(p.match), "--table", p.market, "--owner", m.name];
    const run = await t.command(args, () => p.openWithCli!(m, args), {
      note: `on ${m.name}'s machine: the match names the room`,
      maxLines: 2,
    });
    const room = /^opened room (mr-[0-9a-f]{40})/m.exec(run.stdout)?.[1];
    if (run.code !== 0 || room === undefined)
      throw new DemoError(`trestle market room ${p.match} exited ${run.code}: ${run.stderr.trim()}`);
    return room;
  }
  const entered = await enterMatchRoom({
    market: await tableAt(m, p.relay, p.market),
    seq: p.match,
    owner: m.name,
    ownerSigner: m.owner.signer,
    seatKey: async () => m.seatKey.signer.publicKeyText,
    home: m.home,
  });
  if (entered.how !== how)
    throw new DemoError(`${m.name} ${entered.how} the room of match #${p.match}, expected ${how}`);
  t.say(
    `${m.name}'s client ${how} ${entered.room} for match #${p.match}, seating ${entered.seat} (mandate ${entered.mandate})`,
    how === "joined" ? "the other side: no invite, no code passed" : "the room id is the match's",
  );
  return entered.room;
}

/** The seller and the buyer take turns (the seller first) until one accepts or closes; a refused answer is told to the same agent, which answers again. */
async function negotiate(
  t: Transcript,
  sides: [Side, Side],
  view: ShownLedger,
  refusals: GuardRefusal[],
  full: boolean,
): Promise<Submission & ({ kind: "accept" } | { kind: "close" })> {
  let mover = 0;
  let refused: TurnRefusal | undefined;
  for (let n = 0; n < MAX_TURNS; n++) {
    const side = sides[mover]!;
    const { turn, rules } = await turnOf(side, refused);
    if (full && side.turns.length === 0)
      t.say(
        `${side.m.seat}'s agent is told: "${turn.mandate.join(" ")}"`,
        rules ? "agent_view rules: no figure at all" : "agent_view figures: the limits, as amounts",
      );
    side.turns.push(turn);
    const entry = await replyEntry(turn, side.agent.reply(turn), async (ref, what) =>
      resolveRef(await side.seat.transcript(), ref, what),
    );
    if (entry === null) throw new DemoError(`${side.m.seat}'s agent wrote nothing on its turn`);
    const { table: _table, seat: _seat, nonce: _nonce, ...input } = entry;
    try {
      await side.seat.send(input);
      refused = undefined;
    } catch (error) {
      if (!(error instanceof TrestleError) || error.code !== "E_MANDATE") throw error;
      refused = { code: error.code, reason: String(error.details?.reason), message: error.message };
      refusals.push({
        owner: side.m.name,
        table: side.client.table,
        kind: entry.kind,
        reason: refused.reason,
        message: error.message,
      });
      t.say(`${side.m.seat}'s agent answers: ${entry.kind}${entry.kind === "accept" ? " of the counter above" : ""}`);
      t.say(
        `  refused on ${side.m.name}'s machine before signing: ${error.code} (${refused.reason}): ${error.message}`,
        REFUSAL_NOTES[refused.reason],
      );
      t.say(`  ${side.m.seat}'s agent is told so at once, and answers again`);
      continue;
    }
    await view.show(t, negotiationNote(side.m.name, refusals.length > 0));
    if (entry.kind === "accept" || entry.kind === "close") return entry;
    mover = 1 - mover;
  }
  throw new DemoError(`the room did not end within ${MAX_TURNS} turns`);
}

/** What `side`'s agent is given for a turn, as the seat driver gives it: the seat's projection, its mandate's sentences (agent_view decides whether they hold figures), and its last refusal; and whether the mandate's view is `rules`. */
async function turnOf(side: Side, refused: TurnRefusal | undefined): Promise<{ turn: AgentTurn; rules: boolean }> {
  const { head: _head, ...projection } = await side.client.projection(
    { signer: side.m.seatKey.signer, as: { seat: side.m.seat } },
    0,
  );
  const read = await side.seat.mandate();
  const turn = agentTurn(side.m.seat, "open", projection, {
    mandate: mandateLines(read),
    ...(refused ? { refused } : {}),
  });
  return { turn, rules: read.ok && read.mandate.agent_view === "rules" };
}

/** Both owners sign the deal on accepted offer `offer` with their owner keys: the buyer (with the CLI, when the play says so), then the seller. */
async function signBoth(t: Transcript, p: RoomPlay, seller: Side, buyer: Side, offer: string): Promise<void> {
  if (p.signWithCli) {
    const args = [
      "deal",
      "sign",
      offer.slice(0, 12),
      "--table",
      seller.client.table,
      "--seat",
      buyer.m.seat,
      "--owner",
      buyer.m.name,
    ];
    const run = await t.command(args, () => p.signWithCli!(buyer.m, args), {
      note: `${buyer.m.name} signs the final terms with the owner key`,
      maxLines: 1,
    });
    if (run.code !== 0)
      throw new DemoError(`trestle deal sign as ${buyer.m.name} exited ${run.code}: ${run.stderr.trim()}`);
  } else {
    await signDeal(buyer.seat, buyer.m.owner.signer, offer);
  }
  await signDeal(seller.seat, seller.m.owner.signer, offer);
}

/** The notes of a room's first entries: the opening and the joins when the play prints them in full, nothing of them otherwise. */
function openingNote(p: RoomPlay, opener: MemberMachine, joiner: MemberMachine): EntryNote {
  return (e) => {
    if (e.kind !== "system") return undefined;
    if (!p.full) return null;
    if (e.subkind === "table_opened") return `its config cites match #${p.match}, signed by the relay`;
    if (e.subkind === "seat_joined")
      return e.data.join.owner === joiner.name
        ? "admitted by the match alone"
        : `${opener.name}'s seat, its market seat's mandate carried`;
    return undefined;
  };
}

/** The notes of the negotiation's entries. */
function negotiationNote(owner: Member, afterRefusal: boolean): EntryNote {
  return (e) => {
    if (e.kind === "offer") return "typed terms, signed through the seller's guards";
    if (e.kind === "counter" && afterRefusal) return `${owner}'s agent split the difference with its last price`;
    if (e.kind === "accept") return "an accept binds; both owners must still sign";
    if (e.kind === "close" && "outcome" in e && e.outcome === "no_deal") return "no deal: nothing binds either owner";
    return undefined;
  };
}

/** The notes of the deal's signatures and the room's close. */
function dealNote(e: Entry): string | undefined {
  if (e.kind === "deal_sign") return "an owner's own signature over the final terms";
  if (e.kind === "system" && e.subkind === "table_closed") return "the room is done; the market hears of the deal";
  return undefined;
}

/** The price of a room in words, for the narration. */
export function priceWords(amount: number | null): string {
  return amount === null ? "no deal" : `${majorUnits(amount, "TWD")} TWD`;
}
