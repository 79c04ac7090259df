/**
 * Deals both owners sign, on the owner's machine (docs/ROOMS.md "Deals"): the owner signs the
 * final terms of an accepted offer with the owner key (purpose `deal`) and the seat records that
 * signature in a deal_sign entry; a deal certificate is the deal as the verified ledger folds it
 * plus the whole export, and checking one needs nothing but the relay key.
 */
import { verifyExportText } from "../client/verify.js";
import type { Reader, SeatSubmission, TableClient } from "../client/index.js";
import {
  canonicalize,
  DealCertificateSchema,
  dealStatement,
  dealStatus,
  fold,
  isEntry,
  parseExport,
  parseOrThrow,
  priceStatement,
  signStatement,
  TrestleError,
  type DealCertificate,
  type DealSignature,
  type DealState,
  type Entry,
  type ShowPrice,
  type Signer,
  type TableState,
  type VerifyReport,
} from "../protocol/index.js";
import type { Transcript } from "./transcript.js";
import { roomState } from "./room-view.js";

/** The deal on accepted offer `leaf` in `state`; E_NOT_ALLOWED when nobody accepted it. */
export function dealIn(state: TableState, leaf: string): DealState {
  const deal = state.room && Object.hasOwn(state.room.deals, leaf) ? state.room.deals[leaf]! : undefined;
  if (!deal)
    throw new TrestleError("E_NOT_ALLOWED", `there is no deal on offer ${leaf.slice(0, 16)}… (nobody accepted it)`, {
      reason: "no_deal",
    });
  return deal;
}

/** A seat that sends through its owner's guards (a GuardedSeat), as signDeal needs it: its table, its transcript and its send. */
export interface DealSigningSeat<R> {
  readonly table: string;
  transcript(): Promise<Transcript>;
  send(input: SeatSubmission): Promise<R>;
}

/**
 * Signs the deal on accepted offer `leaf` with the owner key `owner` and sends the deal_sign through the seat's guards; with
 * `showPrice`, in a match's room, the owner also allows the market to show the deal's terms (shown only once both owners did,
 * decision 0529); E_NOT_ALLOWED with `showPrice` in a room that is no match's.
 */
export async function signDeal<R>(
  seat: DealSigningSeat<R>,
  owner: Signer,
  leaf: string,
  options: { showPrice?: boolean } = {},
): Promise<R> {
  const state = roomState(await seat.transcript());
  const deal = dealIn(state, leaf);
  const owner_sig = await signStatement(owner, "deal", dealStatement(seat.table, deal.terms_sha256));
  const show_price = options.showPrice ? await showPriceOf(state, owner, deal.terms_sha256) : undefined;
  return seat.send({
    kind: "deal_sign",
    offer: leaf,
    deal: deal.terms_sha256,
    owner_key: owner.publicKeyText,
    owner_sig,
    ...(show_price ? { show_price } : {}),
  });
}

/** The owner's consent (purpose `price`) to show deal `deal` in the market of the match room `state` is. */
async function showPriceOf(state: TableState, owner: Signer, deal: string): Promise<ShowPrice> {
  const citation = state.config.room?.match;
  if (!citation)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `${state.table} is not a market's match room: there is no market to show the price in`,
      { reason: "not_a_match_room" },
    );
  return {
    market: citation.market,
    match: citation.seq,
    sig: await signStatement(owner, "price", priceStatement(citation.market, citation.seq, deal)),
  };
}

/** Each owner's signature of `deal` as the entries record it, in the order they were written. */
export function dealSignatures(entries: readonly Entry[], deal: DealState): DealSignature[] {
  return Object.entries(deal.signed)
    .map(([owner, seq]) => ({ owner, entry: entries.find((e) => e.seq === seq) }))
    .flatMap(({ owner, entry }) =>
      entry && "owner_sig" in entry
        ? [{ owner, key: entry.owner_key, sig: entry.owner_sig, seat: entry.seat, seq: entry.seq }]
        : [],
    )
    .sort((a, b) => a.seq - b.seq);
}

/** The deal certificate of the deal on offer `leaf`, from the room's export as `reader` reads it; the export must verify CLEAN and hold every entry. */
export async function dealCertificate(client: TableClient, reader: Reader, leaf: string): Promise<DealCertificate> {
  const { text, report } = await client.exportLedger(reader);
  return dealCertificateOf(text, report, leaf);
}

/** The deal certificate of the deal on offer `leaf` from export `text` and its verification `report`; E_REFUTED unless CLEAN with every entry visible. */
export function dealCertificateOf(text: string, report: VerifyReport, leaf: string): DealCertificate {
  const { entries, state, relay, heads } = foldedExport(text, report);
  const deal = dealIn(state, leaf);
  const signatures = dealSignatures(entries, deal);
  const last = Math.max(deal.terms.accept_seq, ...signatures.map((s) => s.seq));
  const head = heads.filter((h) => h.seq >= last).sort((a, b) => b.seq - a.seq)[0];
  if (!head) throw new TrestleError("E_REFUTED", `the export holds no relay-signed head at or after entry ${last}`);
  return {
    type: "trestle-deal",
    version: 1,
    relay,
    terms: deal.terms,
    deal: deal.terms_sha256,
    status: dealStatus(deal),
    signatures,
    head: { seq: head.seq, link: head.link, sig: head.sig },
    export: text,
  };
}

function foldedExport(text: string, report: VerifyReport) {
  const parsed = parseExport(text);
  if (report.verdict !== "CLEAN" || !parsed.ok)
    throw new TrestleError(
      "E_REFUTED",
      `the room's export is ${report.verdict}${report.refuted ? `: ${report.refuted.reason}` : ""}`,
    );
  const entries = parsed.view.items.filter(isEntry);
  if (entries.length !== parsed.view.items.length)
    throw new TrestleError("E_REFUTED", "the export hides entries, so the deal cannot be folded from it");
  return { entries, state: fold(entries), relay: parsed.header.relay, heads: parsed.view.heads };
}

/** What checking a certificate found: the deal as the verified export folds it, when the certificate says exactly that. */
export type DealCheck =
  | { ok: true; certificate: DealCertificate; report: VerifyReport }
  | { ok: false; reason: string; report: VerifyReport | null };

/**
 * Checks certificate `value` offline against `relayKey` only: the export verifies CLEAN under that
 * key (every entry's and every owner's deal signature, the chain and the heads), the certificate's
 * head is one of the export's, and the terms, hash, status and signatures are exactly those the
 * export folds to.
 */
export async function checkDealCertificate(value: unknown, relayKey: string): Promise<DealCheck> {
  const claimed = parseOrThrow(DealCertificateSchema, value, "deal certificate");
  if (claimed.relay !== relayKey)
    return {
      ok: false,
      reason: `the certificate names relay key ${claimed.relay}, not the one you trust`,
      report: null,
    };
  const report = await verifyExportText(claimed.export, { relayKey });
  let folded: DealCertificate;
  try {
    folded = dealCertificateOf(claimed.export, report, claimed.terms.offer);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error), report };
  }
  const heads = parseExport(claimed.export);
  const headHeld =
    heads.ok &&
    heads.view.heads.some(
      (h) => h.seq === claimed.head.seq && h.link === claimed.head.link && h.sig === claimed.head.sig,
    );
  if (!headHeld || claimed.head.seq < Math.max(folded.terms.accept_seq, ...folded.signatures.map((s) => s.seq))) {
    return {
      ok: false,
      reason: "the certificate's head is not a relay-signed head of its export that holds the deal",
      report,
    };
  }
  const { head: _h, ...want } = folded;
  const { head: _c, ...have } = claimed;
  if (canonicalize(want) !== canonicalize(have))
    return {
      ok: false,
      reason: "the certificate's terms, hash, status or signatures are not what its verified export says",
      report,
    };
  return { ok: true, certificate: claimed, report };
}
