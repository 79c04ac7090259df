/**
 * A platform-neutral chat message: a title, plain-text lines and optional approve/reject
 * actions. Nothing here is escaped; each platform's formatter escapes and cuts to its limits.
 */

/** A button: its label and the callback data a tap sends back (see callback.ts). */
export interface ChatAction {
  label: string;
  data: string;
  style: "approve" | "reject";
}

/** What gets sent: plain text parts and actions. */
export interface ChatMessage {
  title: string;
  lines: string[];
  actions: ChatAction[];
}

/** Whether a message fits one platform's limits once that platform's formatter renders it. */
export type Fits = (message: ChatMessage) => boolean;

/** Cuts `text` to at most `max` UTF-16 units, ending in "…" when cut, never splitting a surrogate pair. */
export function ellipsize(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end) + "…";
}

/**
 * The longest rendering of `body` that fits `limit` after `render` (which escapes and decorates):
 * a binary search over how many plain characters of `body` to keep, cut with "…".
 */
export function fitRendered(body: string, limit: number, render: (body: string) => string): string {
  const full = render(body);
  if (full.length <= limit) return full;
  let lo = 0;
  let hi = body.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(ellipsize(body, mid)).length <= limit) lo = mid;
    else hi = mid - 1;
  }
  return render(ellipsize(body, lo));
}
