/**
 * How the viewer shows a table: one list item per entry (seq, seat, kind, body as text, never as
 * HTML; a market's listings, withdrawals, matches and recorded deals in `trestle market watch`'s
 * words, src/text/market.ts), and the verdict of the in-page verification in words, with what it covered. What seats
 * wrote is untrusted: it goes through the same reductions as in the principal window and the CLI
 * (src/text/framing.ts: NFKC, no control, bidi or zero-width character; one safe line for
 * names and system lines, structured values as JSON with such characters escaped).
 */
import { bodyLines, safeJson, safeLine } from "../../../src/text/framing.js";
import { marketEntryText } from "../../../src/text/market.js";
import type { Entry, VerifyReport } from "../../../src/protocol/index.js";
import { el, type ViewElement, type ViewPage } from "./dom.js";

const DATA_CHARS = 400;

/** One entry as a list item. */
export function entryItem(doc: ViewPage, entry: Entry): ViewElement {
  const item = el(doc, "li", `entry kind-${entry.kind}`);
  item.setAttribute("data-seq", String(entry.seq));
  const head = el(doc, "div", "entry-head");
  head.append(
    el(doc, "span", "seq", `#${entry.seq}`),
    " ",
    el(doc, "span", "who", safeLine(entry.seat ?? "relay")),
    " ",
    el(doc, "span", "what", safeLine(kindOf(entry))),
  );
  item.append(head);
  const text = bodyOf(entry);
  if (text) item.append(el(doc, "div", "body", text));
  return item;
}

function kindOf(entry: Entry): string {
  if (entry.kind === "system") return `system ${entry.subkind}`;
  if (entry.kind === "vote") return `vote ${entry.choice} on #${entry.re}`;
  return entry.kind;
}

function bodyOf(entry: Entry): string {
  const market = marketEntryText(entry);
  if (market !== null) return market;
  if (entry.kind === "system") {
    if (entry.subkind === "table_opened") return `topic: ${topicLine(entry.data.config.topic)}`;
    if (entry.subkind === "seat_joined")
      return safeLine(
        `${entry.data.join.seat} joined for ${entry.data.join.owner}${entry.data.join.human ? " (a person)" : ""}`,
      );
    if (entry.subkind === "floor")
      return entry.data.holder === null
        ? "nobody holds the floor"
        : safeLine(`floor to ${entry.data.holder}, round ${entry.data.round} (${entry.data.reason})`);
    if (entry.subkind === "table_closed") return safeLine(`closed: ${entry.data.reason}`);
    const data = safeJson(entry.data);
    return data.length > DATA_CHARS ? `${data.slice(0, DATA_CHARS)}…` : data;
  }
  const body = "body" in entry && typeof entry.body === "string" ? bodyLines(entry.body).join("\n") : "";
  const effects =
    "effects" in entry && entry.effects
      ? entry.effects
          .map((e) => `\neffect ${safeLine(`${e.owner}: ${e.action} on ${e.resource}`)} ${safeJson(e.args)}`)
          .join("")
      : "";
  return body + effects;
}

/** A table's topic as the page shows it (heading and first entry): one safe line. */
export function topicLine(topic: string): string {
  return safeLine(topic, 500);
}

/** The verdict line and its coverage line, for `report` checked against `key` (`pinned`: taken from the link, else from this relay). */
export function verdictText(
  report: VerifyReport,
  key: string,
  pinned: boolean,
): { verdict: string; coverage: string; className: string } {
  const c = report.coverage;
  const source = pinned ? "the key in this link" : "this relay's own key (compare it with one you trust)";
  const coverage = `Checked in this page against ${source} ${key}: ${c.by_content} entries by content, ${c.signatures} signatures, ${c.heads} relay-signed heads (newest #${c.head_seq ?? 0}), policy replay ${c.policy_replay}.`;
  if (report.verdict === "REFUTED") {
    const at = report.refuted?.seq != null ? ` at entry #${report.refuted.seq}` : "";
    return {
      verdict: `REFUTED${at}: ${report.refuted?.reason ?? "the transcript does not verify"}`,
      coverage,
      className: "verdict refuted",
    };
  }
  if (report.verdict === "INCONCLUSIVE") {
    return { verdict: `INCONCLUSIVE: ${report.unchecked.join("; ")}`, coverage, className: "verdict inconclusive" };
  }
  return { verdict: `CLEAN: ${report.last_seq} entries verified`, coverage, className: "verdict clean" };
}
