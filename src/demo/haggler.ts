/**
 * The market demo's scripted agent (no model calls): it reads only the turn trestle gives any agent
 * (src/owner/agent-turn.ts: the room's projection, the sentences of its owner's mandate, how its
 * last entry was refused) and answers as an agent would. A seller opens at its price and comes down
 * by a step, a buyer starts low and goes up by one; each accepts the other's price once it is no
 * further than its own next step. Its limits are what the mandate's sentences state (agent_view
 * `figures`); under `rules` they state none, so the agent learns only that a price it tried was
 * refused and splits the difference with its last one, as it does when a price would pass its
 * owner's allowance (what the owner's other rooms spent is not in this room's turn). Deterministic: the same turns give the same answers.
 */
import type { AgentReply, AgentTurn } from "../owner/index.js";
import { TermsSchema, type ProjectedEntry } from "../protocol/index.js";
import { currencyDigits, majorUnits } from "../text/terms.js";

/** What the owner told the agent, all of it public or the agent's own tactics: its side, where it opens, how far it moves a turn, and its first words. */
export interface HaggleScript {
  side: "sell" | "buy";
  currency: string;
  /** The first price it names (minor units). */
  open: number;
  /** How far it moves each turn (minor units). */
  step: number;
  /** The terms' text of a seller's opening offer. */
  pitch?: string;
}

/** The reasons a guard refuses a price for (mandate-limits.ts, allowance.ts): a price nearer the agent's own side may pass. */
const MONEY_LIMITS: ReadonlySet<string> = new Set(["floor", "cap", "allowance"]);

/** A price on the table: whose, and at which entry. */
interface Priced {
  seq: number;
  amount: number;
  mine: boolean;
}

/** The agent's limits as its mandate's sentences state them (agent-view.ts), in minor units; none under agent_view `rules`. */
export function toldLimits(mandate: readonly string[], currency: string): { cap?: number; floor?: number } {
  const text = mandate.join(" ");
  const amount = (pattern: RegExp): number | undefined => {
    const found = pattern.exec(text)?.[1];
    return found === undefined
      ? undefined
      : Math.round(Number(found.replaceAll(",", "")) * 10 ** currencyDigits(currency));
  };
  const cap = amount(new RegExp(`commit at most ([0-9][0-9,]*(?:\\.[0-9]+)?) ${currency}`));
  const floor = amount(/, at least ([0-9][0-9,]*(?:\.[0-9]+)?)/);
  return { ...(cap === undefined ? {} : { cap }), ...(floor === undefined ? {} : { floor }) };
}

/** One scripted agent behind one room seat; it remembers only what it tried itself. */
export class Haggler {
  /** The price its last answer named, and the nearest price its owner's guard refused (learned, never told). */
  private tried: number | null = null;
  private refusedAt: number | null = null;

  constructor(readonly script: HaggleScript) {}

  /** The agent's answer to `turn`: an offer, a counter, an accept, a word that it holds, or a close without a deal. */
  reply(turn: AgentTurn): AgentReply {
    const { side, currency, step } = this.script;
    const sells = side === "sell";
    if (turn.refused && this.tried !== null && MONEY_LIMITS.has(turn.refused.reason)) this.refusedAt = this.tried;
    const told = toldLimits(turn.mandate, currency);
    const priced = prices(turn.projection.tail, turn.seat);
    const mine = priced.filter((p) => p.mine).at(-1);
    const theirs = priced.filter((p) => !p.mine).at(-1);
    const money = (amount: number) => `${majorUnits(amount, currency)} ${currency}`;
    const within = (amount: number) =>
      (sells ? told.floor === undefined || amount >= told.floor : told.cap === undefined || amount <= told.cap) &&
      (this.refusedAt === null || (sells ? amount > this.refusedAt : amount < this.refusedAt));

    if (!theirs) {
      // The seller opens; a buyer, or a seller whose offer stands, waits (an empty answer writes nothing on an open table).
      if (!sells || mine) return { text: "" };
      const { open, pitch } = this.script;
      return this.priced(open, {
        kind: "offer",
        terms: { amount: open, currency, ...(pitch ? { text: pitch } : {}) },
        body: `Asking ${money(open)}.`,
      });
    }
    let next = mine === undefined ? this.script.open : sells ? mine.amount - step : mine.amount + step;
    if (this.refusedAt !== null && mine !== undefined)
      next = roundTo((this.refusedAt + mine.amount) / 2, step / 2, sells);
    const good = sells ? theirs.amount >= next : theirs.amount <= next;
    if (good && within(theirs.amount))
      return this.priced(theirs.amount, {
        kind: "accept",
        offer: theirs.seq,
        body: `Deal at ${money(theirs.amount)}.`,
      });
    if (within(next) && next !== mine?.amount) {
      const body = this.refusedAt === null ? `How about ${money(next)}?` : `${money(next)} is the best I can do.`;
      return this.priced(next, { kind: "counter", offer: theirs.seq, terms: { amount: next, currency }, body });
    }
    const held = turn.projection.tail.some((e) => e.kind === "say" && e.seat !== turn.seat);
    if (held || mine === undefined)
      return {
        data: { kind: "close", outcome: "no_deal", body: "We are too far apart. Thank you, and good luck with it." },
      };
    return { text: `${money(mine.amount)} is as far as I can go.` };
  }

  /** An answer naming `amount`, remembered as what it tried. */
  private priced(amount: number, entry: Record<string, unknown>): AgentReply {
    this.tried = amount;
    return { data: entry };
  }
}

/** Every priced offer and counter in `tail`, oldest first, marked when `seat` wrote it. */
function prices(tail: readonly ProjectedEntry[], seat: string): Priced[] {
  return tail.flatMap((e) => {
    const terms = TermsSchema.safeParse(e.data?.terms);
    return (e.kind === "offer" || e.kind === "counter") && terms.success && terms.data.amount !== undefined
      ? [{ seq: e.seq, amount: terms.data.amount, mine: e.seat === seat }]
      : [];
  });
}

/** `amount` rounded to a multiple of `unit`, toward the agent's own side (up for a seller, down for a buyer). */
function roundTo(amount: number, unit: number, up: boolean): number {
  return (up ? Math.ceil(amount / unit) : Math.floor(amount / unit)) * unit;
}
