/**
 * One verified ledger entry as the principal window's transcript shows it (wire.ts EntryView):
 * who wrote it, its kind, what it is about, its body and effects, and the facts its badges show.
 * What seats and the relay wrote is untrusted: every string goes through the inbound framing's
 * reductions (one safe line each; no control, bidi or zero-width character), and the page puts it
 * in the document as text, never as markup. The words are the CLI's (src/text/format.ts); a room
 * entry's are src/text/commitment.ts's, with the offer an answer names read from the table state
 * and, in an e2e room, texts opened with this home's room key (a text that does not open reads as
 * sealed); a market's listings, withdrawals, matches and recorded deals are in `trestle market
 * watch`'s words (src/text/market.ts).
 */
import { bodyLines } from "../text/framing.js";
import { effectText, gatewayText, oneLine, systemText } from "../text/format.js";
import {
  isSealedText,
  own,
  projectEntry,
  type Effect,
  type Entry,
  type SealedField,
  type TableState,
} from "../protocol/index.js";
import { commitmentText, namedIn } from "../text/commitment.js";
import { marketEntryText } from "../text/market.js";
import { EN_TERMS } from "../text/terms.js";
import type { EffectWords, EntryView } from "./wire.js";

/** Opens a seat's sealed text where this home holds the room key; else gives it back as it is. */
export type Opener = (seat: string, field: SealedField, text: string) => string;

const asGiven: Opener = (_seat, _field, text) => text;

/** `entry` for the transcript, read with the table state right after it, this owner's name and the room's opened texts. */
export function entryView(entry: Entry, state: TableState | null, me: string, open: Opener = asGiven): EntryView {
  const base = { seq: entry.seq, signed: entry.author !== null, truncated: null, effects: [] as string[], about: "" };
  if (entry.kind === "system") {
    const projected = projectEntry(entry);
    const control = entry.subkind === "table_paused" || entry.subkind === "table_resumed" ? entry.data : null;
    // An owner's own word: a control, or a revocation of one of its seats (owner-signed, §5.13).
    const owner = control?.owner ?? (entry.subkind === "seat_revoked" ? entry.data.owner : null);
    return {
      ...base,
      who: owner !== null ? `owner ${oneLine(owner)}` : "relay",
      role: owner !== null ? "owner" : "relay",
      kind: entry.subkind,
      lines: [
        oneLine(marketEntryText(entry) ?? systemText(entry.subkind, projected.data ?? {})),
        ...(projected.body === undefined ? [] : safeBody(projected.body)),
      ],
      via: control && control.via !== "owner" ? control.via : null,
      mine: owner === me,
    };
  }
  if (entry.kind === "approval") {
    return {
      ...base,
      who: `owner ${oneLine(entry.owner)}`,
      role: "owner",
      kind: "approval",
      about: oneLine(`${entry.verdict}s task ${entry.task}`),
      lines: [],
      via: entry.via ?? null,
      mine: entry.owner === me,
    };
  }
  const effects = (entry.kind === "proposal" || entry.kind === "decision") && entry.effects ? entry.effects : [];
  return {
    ...base,
    who: oneLine(entry.seat),
    role: "seat",
    kind: entry.kind,
    about:
      gatewayText(projectEntry(entry)).trim() ||
      (commitmentText(entry, namedIn(state, { open })) ?? marketEntryText(entry) ?? ""),
    lines: shownBody(open(entry.seat, "body", entry.body)),
    effects: effects.map(effectText),
    via: null,
    truncated: entry.truncated ? entry.truncated.chars : null,
    mine: (state && own(state.seats, entry.seat)?.owner) === me,
  };
}

/** An effect in plain words for the approval card: action, resource, and each argument as `key: value`. */
export function effectWords(effect: Effect): EffectWords {
  return {
    owner: oneLine(effect.owner),
    action: oneLine(effect.action),
    resource: oneLine(effect.resource),
    args: Object.entries(effect.args).map(([key, value]) =>
      oneLine(`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`),
    ),
  };
}

/** A body as the transcript shows it: safe lines, or one line saying it is sealed when it did not open. */
function shownBody(body: string): string[] {
  return isSealedText(body) ? [EN_TERMS.sealed] : safeBody(body);
}

/** A body as safe lines, with no trailing empty ones; none for an empty body. */
export function safeBody(body: string): string[] {
  const lines = bodyLines(body);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  return lines;
}
