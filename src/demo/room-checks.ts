/**
 * What the room scenario must show: a deal closed at 2,800.00 TWD, the export CLEAN by the CLI's
 * own `trestle verify`, the deal signed by both owners with a certificate `trestle deal verify`
 * accepts offline, ben's guard refusing his seat's attempt to write his cap, and neither
 * sara's floor nor ben's cap anywhere in the ledger, in any of the forms they could be written
 * (case-insensitive, over every field but the random ones: ids, hashes, keys, signatures, nonces,
 * times, in which a 4-digit run appears by chance).
 */
import { verdictOf } from "./checks.js";
import { exportContent, type RoomOutcome } from "./room.js";

/** One check of the room scenario. */
export interface RoomCheck {
  name: "deal" | "verify_clean" | "deal_signed" | "guard_refused" | "floor_absent" | "cap_absent";
  ok: boolean;
  text: string;
}

/** The room scenario's checks, in order. */
export function roomChecksOf(outcome: RoomOutcome): RoomCheck[] {
  const verdict = verdictOf(outcome);
  const content = exportContent(outcome.exportText).map((line) => line.toLowerCase());
  const found = (forms: readonly string[]) =>
    forms.filter((form) => content.some((line) => line.includes(form.toLowerCase())));
  const absent = (name: "floor_absent" | "cap_absent", who: string, forms: readonly string[]): RoomCheck => {
    const leaked = found(forms);
    return {
      name,
      ok: leaked.length === 0,
      text:
        leaked.length === 0
          ? `${who} (${forms.join(", ")}) appears nowhere in the ledger (${content.length} entries)`
          : `the ledger holds ${who}: "${leaked.join('", "')}"`,
    };
  };
  const deal = outcome.outcome === "deal" && outcome.deal?.amount === 280000 && outcome.deal.currency === "TWD";
  return [
    {
      name: "deal",
      ok: deal,
      text: deal
        ? "the room closed with a deal at 2,800.00 TWD"
        : `the room ended ${outcome.outcome ?? "without an outcome"} at ${JSON.stringify(outcome.deal)}`,
    },
    {
      name: "verify_clean",
      ok: verdict === "CLEAN" && outcome.verify.code === 0,
      text: `trestle verify on the export: ${verdict || "no verdict"} (exit ${outcome.verify.code})`,
    },
    {
      name: "deal_signed",
      ok: outcome.dealStatus === "done" && outcome.certificate.code === 0,
      text: `the deal is ${outcome.dealStatus ?? "missing"}; trestle deal verify on its certificate, offline with the relay key: exit ${outcome.certificate.code}`,
    },
    {
      name: "guard_refused",
      ok: outcome.refused?.kind === "say" && outcome.refused.reason === "disclose",
      text: outcome.refused
        ? `ben's guard refused his seat's ${outcome.refused.kind} naming the cap (${outcome.refused.reason}), before signing`
        : "ben's guard recorded no refusal",
    },
    absent("floor_absent", "sara's floor", outcome.floor),
    absent("cap_absent", "ben's cap", outcome.cap),
  ];
}
