/**
 * Every instant the principal window shows (and the relay's viewer, for a market's listings), one
 * way: a <time> element whose text is the viewer's local clock time and how far it is from now, "14:05 (in 23 min)", with the exact instant in its
 * `datetime` (ISO 8601, UTC) and its `title` (the local date, time and time zone). The server's
 * words carry instants as the CLI prints them (ISO 8601 in UTC, `toISOString`); `withTimes` turns
 * each into such an element. `refreshTimes` redoes the relative words as time passes. The clock
 * and date follow the browser's locale and time zone; the relative words are English, as the page.
 */
import { h, type Doc, type El } from "./dom.js";

/** An instant as `toISOString` writes it, inside the server's words. */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z/g;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How far `at` is from `now` in words: "in under a minute", "in 23 min", "5 h ago", "in 3 days". Rounded to the nearest unit; minutes below 90, hours below 36 (so never "1 day"). */
export function relativeWords(at: number, now: number): string {
  const gap = Math.abs(at - now);
  const ahead = at >= now;
  if (gap < MINUTE) return ahead ? "in under a minute" : "just now";
  const amount =
    gap < 90 * MINUTE
      ? `${Math.round(gap / MINUTE)} min`
      : gap < 36 * HOUR
        ? `${Math.round(gap / HOUR)} h`
        : `${Math.round(gap / DAY)} days`;
  return ahead ? `in ${amount}` : `${amount} ago`;
}

/** `at` on the viewer's clock: the time alone on the viewer's day of `now`, else with the date (and the year when it is not this one). */
function clockWords(at: number, now: number): string {
  const when = new Date(at);
  const today = new Date(now);
  if (when.toDateString() === today.toDateString())
    return when.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const year = when.getFullYear() === today.getFullYear() ? {} : { year: "numeric" as const };
  return when.toLocaleString(undefined, {
    ...year,
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** What a <time> for `at` reads as of `now`: the clock, then how far. */
const shown = (at: number, now: number) => `${clockWords(at, now)} (${relativeWords(at, now)})`;

/** A <time> for the instant `at` (ms since the epoch), its words as of `now`. */
export function timeElement(doc: Doc, at: number, now = Date.now()): El {
  const element = h(doc, "time", "");
  element.setAttribute("datetime", new Date(at).toISOString());
  element.setAttribute("title", new Date(at).toLocaleString(undefined, { dateStyle: "full", timeStyle: "long" }));
  element.setAttribute("data-at", String(at));
  element.textContent = shown(at, now);
  return element;
}

/** `text` with each ISO 8601 UTC instant in it as a <time> (timeElement); the rest stays text. */
export function withTimes(doc: Doc, text: string, now = Date.now()): (El | string)[] {
  const out: (El | string)[] = [];
  let from = 0;
  for (const match of text.matchAll(ISO_INSTANT)) {
    const at = Date.parse(match[0]);
    if (Number.isNaN(at)) continue;
    if (match.index > from) out.push(text.slice(from, match.index));
    out.push(timeElement(doc, at, now));
    from = match.index + match[0].length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** Redoes the words of every <time> the page shows, as of `now`. */
export function refreshTimes(doc: Doc, now = Date.now()): void {
  for (const element of doc.querySelectorAll("time[data-at]")) {
    element.textContent = shown(Number(element.getAttribute("data-at")), now);
  }
}
