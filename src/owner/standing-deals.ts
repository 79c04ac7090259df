/**
 * The owner's standing rule "sign deals within my mandate" (docs/ROOMS.md "Deals", decision 0420):
 * a mandate the owner signed with `sign_deals: "within_mandate"` lets the owner's own client sign,
 * with the owner key in this home, each deal of that seat whose final terms the mandate allows (its
 * currency, at most its cap, at least its floor; not paused, not loosened). Any other deal stays
 * pending for the owner to sign in person (`trestle deal sign`, `trestle_deal_sign`).
 */
import { existsSync, readFileSync } from "node:fs";
import { ownerKeyPath } from "../client/home.js";
import { readKeyFile } from "../client/keys.js";
import type { DealState } from "../protocol/index.js";
import { moneyText } from "../text/terms.js";
import { signDeal, type DealSigningSeat } from "./deals.js";
import type { MandateRead } from "./mandate.js";
import type { SeatFiles } from "./paths.js";
import type { Transcript } from "./transcript.js";
import { MandateFileSchema, type Mandate } from "./records.js";
import { roomState } from "./room-view.js";

/** What the standing rule did with one deal of the seat's owner: signed in entry `seq`, or left pending and why. */
export type StandingDeal =
  | { offer: string; offer_seq: number; signed: true; seq: number }
  | { offer: string; offer_seq: number; signed: false; reason: string };

/** A seat that sends through its owner's guards (a GuardedSeat), as the standing rule needs it: its name, files and mandate, and a deal signer. */
export interface StandingSeat extends DealSigningSeat<{ seq: number }> {
  readonly seat: string;
  readonly files: SeatFiles;
  mandate(transcript?: Transcript): Promise<MandateRead>;
}

/** Why `mandate`'s standing rule does not cover `deal` (the cap's or floor's amount only under agent_view `figures`), or null when its final terms are within the mandate. */
export function outsideMandate(mandate: Mandate, deal: DealState): string | null {
  if (mandate.sign_deals !== "within_mandate") return "the mandate holds no standing rule to sign deals";
  if (mandate.paused) return "the owner paused the seat";
  if (mandate.loosened) return "the mandate was loosened, so each commitment needs the owner";
  const { amount, currency } = deal.terms.terms;
  const money = mandate.money;
  if (amount === undefined || currency === undefined) return "the deal names no price";
  if (!money) return "the mandate allows no money (cap 0)";
  if (currency !== money.currency) return `the deal is in ${currency}, the mandate's money in ${money.currency}`;
  const price = moneyText(amount, currency);
  // The reason reaches the seat's agent (a tool's result, the CLI's output): under agent_view `rules` it names no limit's amount.
  const figure = (limit: number) => (mandate.agent_view === "rules" ? "" : ` ${moneyText(limit, currency)}`);
  if (amount > money.cap) return `${price} is above the mandate's cap${figure(money.cap)}`;
  if (money.floor !== undefined && amount < money.floor)
    return `${price} is below the mandate's floor${figure(money.floor)}`;
  return null;
}

/**
 * Under the standing rule of `seat`'s mandate, signs each unsigned deal of the seat's owner in which
 * the seat is a party and whose terms the mandate allows, with the owner key file of this home
 * (`home`/owners/<owner>.json, which must be the key that signed the mandate), and reports the
 * others as pending. Nothing happens without the rule.
 */
export async function signDealsWithinMandate(seat: StandingSeat, home: string): Promise<StandingDeal[]> {
  if (!namesStandingRule(seat.files.mandate)) return [];
  const transcript = await seat.transcript();
  const mandate = await seat.mandate(transcript);
  if (!mandate.ok || mandate.mandate.sign_deals === undefined || !transcript.state?.room) return [];
  const deals = Object.entries(roomState(transcript).room!.deals).flatMap(([leaf, deal]) => {
    const party = [deal.terms.offered_by, deal.terms.accepted_by].find((p) => p.seat === seat.seat);
    return party && !Object.hasOwn(deal.signed, party.owner) ? [{ leaf, deal }] : [];
  });
  if (deals.length === 0) return [];
  const path = ownerKeyPath(home, mandate.mandate.owner);
  const owner = existsSync(path) ? await readKeyFile(path, "owner") : null;
  const signer = owner?.signer.publicKeyText === mandate.file.owner_key ? owner.signer : null;
  const keyless =
    owner === null
      ? `this machine holds no owner key for ${mandate.mandate.owner}`
      : "the owner key here did not sign the mandate";
  const out: StandingDeal[] = [];
  for (const { leaf, deal } of deals) {
    const where = { offer: leaf, offer_seq: deal.terms.offer_seq };
    const why = signer === null ? keyless : outsideMandate(mandate.mandate, deal);
    if (signer === null || why !== null) {
      out.push({ ...where, signed: false, reason: why ?? keyless });
      continue;
    }
    const sent = await signDeal(seat, signer, leaf);
    out.push({ ...where, signed: true, seq: sent.seq });
  }
  return out;
}

/** What the standing rule did after a message, one line per deal, plus a line when it could not run; none when it had nothing to do. */
export function standingDealLines(sent: { deals?: StandingDeal[]; deals_error?: string }): string[] {
  const lines = (sent.deals ?? []).map((d) =>
    d.signed
      ? `your standing rule signed the deal on #${d.offer_seq} with your owner key (entry #${d.seq})`
      : `the deal on #${d.offer_seq} waits for your signature: ${d.reason}`,
  );
  return sent.deals_error === undefined
    ? lines
    : [...lines, `your standing rule could not run (${sent.deals_error}); your deals stay pending`];
}

/** Whether the mandate file at `path` names a standing rule at all (read unchecked, only to skip the verified read when it does not). */
function namesStandingRule(path: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return false;
  }
  try {
    return MandateFileSchema.safeParse(JSON.parse(text)).data?.mandate.sign_deals !== undefined;
  } catch {
    return false;
  }
}
