/**
 * A platform-neutral chat message: a title, plain-text lines and optional approve/reject
 * actions. Nothing here is escaped; each platform's formatter escapes and cuts to its limits.
 */

/** A button: its label and the callback data a tap sends back (see callback.ts, question.ts for `choice`). */
export interface ChatAction {
  label: string;
  data: string;
  style: "approve" | "reject" | "choice";
}

/** What gets sent: plain text parts and actions. */
export interface ChatMessage {
  title: string;
  lines: string[];
  actions: ChatAction[];
  /** The message asks for a reply (a free-text question): Telegram opens the reply field (force_reply). */
  reply?: boolean;
}

/** Whether a message fits one platform's limits once that platform's formatter renders it, counted as that platform counts. */
export type Fits = (message: ChatMessage) => boolean;

/** How long a platform counts a rendered text: never less than that platform's own count of it. */
type Measure = (rendered: string) => number;

/** The number of Unicode code points in `text`: a surrogate pair counts once, any other UTF-16 unit once. */
export function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** Cuts `text` to at most `max` UTF-16 units, ending in "…" when cut, never splitting a surrogate pair. */
export function ellipsize(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end) + "…";
}

/**
 * The longest rendering of `body` whose `measure` (UTF-16 code units unless given) is within `limit`
 * after `render` (which escapes and decorates): a binary search over how many plain characters of
 * `body` to keep, cut with "…".
 */
export function fitRendered(
  body: string,
  limit: number,
  render: (body: string) => string,
  measure: Measure = (s) => s.length,
): string {
  const full = render(body);
  if (measure(full) <= limit) return full;
  let lo = 0;
  let hi = body.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(render(ellipsize(body, mid))) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return render(ellipsize(body, lo));
}
