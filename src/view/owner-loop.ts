/**
 * The owner in the loop at one table of the principal window (docs/VIEW.md, docs/SPEC.md §5.14,
 * docs/ROOMS.md "Deals", decision 0417): the questions this owner's seats asked it (read as the
 * owner), the instructions each of its seats holds (read as that seat, with the seat key this home
 * keeps, each owner-signed one checked against this owner key) and the room's deals as the verified
 * ledger folds them; and the three things the page asks to sign with the owner key: an answer and
 * an instruction (client/owner-ask.ts, as `trestle answer` and `trestle instruct`) and a deal
 * signature (owner/deals.ts signDeal, recorded by this owner's seat in the deal, as `trestle deal
 * sign`). In an end-to-end encrypted room every text is opened and sealed with this home's room
 * key here; a text that does not open reads as sealed, never as its ciphertext.
 */
import {
  answerQuestion,
  instructSeat,
  readInstructions,
  readKeyFile,
  seatKeyPath,
  type Clock,
  type LoadedKey,
} from "../client/node.js";
import { GuardedSeat, loadRoomKey, openText, sealText, signDeal, type RoomKey } from "../owner/index.js";
import {
  dealOwners,
  dealStatus,
  isSealedText,
  own,
  TrestleError,
  type DealState,
  type QuestionRecord,
  type SealedField,
  type TableState,
} from "../protocol/index.js";
import { dealStatusWords } from "../text/deal.js";
import { bodyLines, safeLine } from "../text/framing.js";
import { EN_TERMS, termsText } from "../text/terms.js";
import type { Identity, TableWatch } from "./table-watch.js";
import type { AnswerBody, DealView, InstructionView, LoopEvent, QuestionView, SeatLoop } from "./wire.js";

/** What reading and signing at one table needs besides its watch. */
export interface LoopContext {
  home: string;
  owner: Identity;
  clock: Clock;
}

/** This owner's seats at `state` that still hold their seat (not revoked, not left), by the folded ledger. */
function ownSeats(state: TableState | null, owner: string): string[] {
  if (!state) return [];
  return Object.values(state.seats)
    .filter((s) => s.owner === owner && s.left === null)
    .map((s) => s.name);
}

/** Everything of the owner's loop at `watch`'s table now; a read the relay refuses is named in `problem`, never thrown. */
export async function readLoop(ctx: LoopContext, watch: TableWatch): Promise<LoopEvent> {
  const state = watch.folded;
  const room = await loadRoomKey(ctx.home, watch.table).catch(() => null);
  const me = ctx.owner;
  let questions: QuestionView[] = [];
  let problem: string | null = null;
  try {
    const list = await watch.client.http.questions(watch.table, { signer: me.signer, as: { owner: me.name } });
    questions = await Promise.all(list.questions.map((q) => questionView(room, watch.table, q)));
  } catch (error) {
    problem = errorWords(error);
  }
  const seats = await Promise.all(ownSeats(state, me.name).map((seat) => seatLoop(ctx, watch, room, seat)));
  return { type: "loop", table: watch.table, questions, seats, deals: dealViews(watch, me.name), problem };
}

/** Signs this owner's answer to question `question` (the choice's text, or free text) and sends it; sealed first in an e2e room. */
export async function answer(
  ctx: LoopContext,
  watch: TableWatch,
  { question, answer: given }: AnswerBody,
): Promise<string> {
  const me = ctx.owner;
  const { questions } = await watch.client.http.questions(watch.table, { signer: me.signer, as: { owner: me.name } });
  const asked = questions.find((q) => q.question.question === question);
  if (!asked)
    throw new TrestleError("E_UNKNOWN_QUESTION", `no question "${question}" of ${me.name}'s seats at ${watch.table}`);
  const { seat, choices } = asked.question;
  const room = await loadRoomKey(ctx.home, watch.table).catch(() => null);
  let value: string;
  if ("choice" in given) {
    if (!choices)
      throw new TrestleError("E_SCHEMA", `question ${question} takes a free-text answer, not a choice`, {
        path: "answer",
      });
    const chosen = choices[given.choice];
    if (chosen === undefined)
      throw new TrestleError("E_SCHEMA", `question ${question} has ${choices.length} choices`, {
        path: "answer.choice",
      });
    value = await opened(room, watch.table, seat, "question", chosen);
    if (isSealedText(value))
      throw new TrestleError(
        "E_KEY_FILE",
        "the choices of this question do not open with the room key on this machine",
      );
  } else {
    if (choices)
      throw new TrestleError("E_SCHEMA", `question ${question} is answered with one of its choices`, {
        path: "answer",
      });
    value = given.text;
  }
  const sent = room ? await sealText(room, { table: watch.table, seat, field: "answer" }, value) : value;
  await answerQuestion(watch.client.http, watch.table, me.signer, me.name, seat, question, sent, ctx.clock);
  return `answered ${seat}'s question ${question} with ${me.name}'s key: ${safeLine(value, 120)}`;
}

/** Signs an instruction `text` to this owner's seat `seat` and sends it; sealed first in an e2e room; another owner's seat is refused before sending. */
export async function instruct(ctx: LoopContext, watch: TableWatch, seat: string, text: string): Promise<string> {
  const me = ctx.owner;
  if (!ownSeats(watch.folded, me.name).includes(seat))
    throw new TrestleError(
      "E_FORBIDDEN",
      `seat ${seat} is not ${me.name}'s at ${watch.table}; this window instructs ${me.name}'s seats only`,
    );
  const room = await loadRoomKey(ctx.home, watch.table).catch(() => null);
  const sent = room ? await sealText(room, { table: watch.table, seat, field: "instruction" }, text) : text;
  const { n } = await instructSeat(watch.client.http, watch.table, me.signer, me.name, seat, sent, ctx.clock);
  return `instruction #${n} to ${seat} signed with ${me.name}'s key; the seat reads it framed as yours`;
}

/** Signs the deal on accepted offer `offer` with the owner key; this owner's seat in the deal records it (its key must be in this home). */
export async function signDealHere(ctx: LoopContext, watch: TableWatch, offer: string): Promise<string> {
  const me = ctx.owner;
  const deal = watch.folded?.room && own(watch.folded.room.deals, offer);
  if (!deal)
    throw new TrestleError("E_NOT_ALLOWED", `there is no deal on offer ${offer.slice(0, 16)}… (nobody accepted it)`, {
      reason: "no_deal",
    });
  const party = [deal.terms.offered_by, deal.terms.accepted_by].find((p) => p.owner === me.name);
  if (!party)
    throw new TrestleError("E_FORBIDDEN", `${me.name} is not a party to the deal on offer #${deal.terms.offer_seq}`);
  const key = await seatKey(ctx, watch, party.seat);
  const seat = new GuardedSeat({
    client: watch.client,
    seat: party.seat,
    signer: key.signer,
    home: ctx.home,
    clock: ctx.clock,
  });
  const { seq } = await signDeal(seat, me.signer, offer);
  return `the deal on offer #${deal.terms.offer_seq} signed with ${me.name}'s key; ${party.seat} recorded it (entry #${seq})`;
}

/** The seat key this home keeps for `seat`; E_KEY_FILE when there is none, or it is not the key the ledger seats there. */
async function seatKey(ctx: LoopContext, watch: TableWatch, seat: string): Promise<LoadedKey> {
  const key = await readKeyFile(seatKeyPath(ctx.home, seat), "seat");
  const held = watch.folded ? own(watch.folded.seats, seat)?.key : undefined;
  if (held !== key.signer.publicKeyText)
    throw new TrestleError(
      "E_KEY_FILE",
      `the key this machine keeps for ${seat} is not the key that holds it at ${watch.table}`,
    );
  return key;
}

async function seatLoop(ctx: LoopContext, watch: TableWatch, room: RoomKey | null, seat: string): Promise<SeatLoop> {
  try {
    const key = await seatKey(ctx, watch, seat);
    const { instructions } = await readInstructions(
      watch.client.http,
      watch.table,
      key.signer,
      seat,
      0,
      ctx.owner.signer.publicKeyText,
    );
    const views: InstructionView[] = await Promise.all(
      instructions.map(async (i) => ({
        n: i.n,
        lines: bodyLines(await opened(room, watch.table, seat, "instruction", i.text)),
        verified: i.verified,
        via: i.via,
        at: i.at,
      })),
    );
    return { seat, instructions: views, problem: null };
  } catch (error) {
    return { seat, instructions: [], problem: errorWords(error) };
  }
}

async function questionView(room: RoomKey | null, table: string, q: QuestionRecord): Promise<QuestionView> {
  const { question: id, seat, text, choices, deadline } = q.question;
  const open = (field: SealedField, t: string) => opened(room, table, seat, field, t);
  const answerText = q.answer ? await open("answer", q.answer.value) : null;
  return {
    id,
    seat,
    lines: bodyLines(await open("question", text)),
    choices: choices ? await Promise.all(choices.map(async (c) => safeLine(await open("question", c), 64))) : null,
    deadline,
    state: q.state,
    answer:
      q.answer && answerText !== null
        ? { lines: bodyLines(answerText), verified: q.answer.verified, via: q.answer.via }
        : null,
  };
}

/** `text` opened with the room key at `seat`'s `field`; a sealed text that does not open reads as sealed; plain text as it is. */
async function opened(
  room: RoomKey | null,
  table: string,
  seat: string,
  field: SealedField,
  text: string,
): Promise<string> {
  if (!isSealedText(text)) return text;
  return (room ? await openText(room, { table, seat, field }, text) : null) ?? EN_TERMS.sealed;
}

/** The deals of the room `watch` follows, as its verified ledger folds them, oldest offer first. */
export function dealViews(watch: TableWatch, me: string): DealView[] {
  const deals = watch.folded?.room?.deals ?? {};
  return Object.entries(deals)
    .map(([offer, deal]) => dealView(watch, offer, deal, me))
    .sort((a, b) => a.offer_seq - b.offer_seq);
}

function dealView(watch: TableWatch, offer: string, deal: DealState, me: string): DealView {
  const { terms } = deal;
  const signed = Object.entries(deal.signed)
    .sort(([, a], [, b]) => a - b)
    .map(([owner]) => owner);
  const status = dealStatus(deal);
  const words = dealStatusWords(status, terms, signed);
  const text =
    terms.terms.text === undefined
      ? {}
      : { text: watch.texts.open(terms.offered_by.seat, "terms.text", terms.terms.text) };
  return {
    offer,
    offer_seq: terms.offer_seq,
    status,
    label: words.label,
    lines: [
      words.meaning,
      `${termsText({ ...terms.terms, ...text })}: offered by ${terms.offered_by.owner} (${terms.offered_by.seat}) in #${terms.offer_seq}, accepted by ${terms.accepted_by.owner} (${terms.accepted_by.seat}) in #${terms.accept_seq}`,
      signed.length === 0
        ? "signed by nobody yet"
        : `signed by ${signed.map((o) => `${o} (#${deal.signed[o]})`).join(" and ")}`,
    ],
    signed,
    can_sign: dealOwners(deal).includes(me) && !signed.includes(me),
  };
}

/** An error in words: a protocol error's code and message, else its message. */
export function errorWords(error: unknown): string {
  if (error instanceof TrestleError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
