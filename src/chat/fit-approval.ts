/**
 * Fitting an approval request into one platform message without ever letting a tap approve what
 * the message did not show (docs/SPEC.md §11.6). The complete form lists every effect with its
 * arguments in full, then the line saying whether a tap counts, with Approve and Reject. When a
 * platform's limit, counted as that platform counts (the `Fits` given), cannot hold that, the
 * partial form lists as many effects as fit (arguments cut), says how many are not shown, offers
 * Reject only, and ends with how to approve with the owner key.
 * The task lines and the last line are never cut; only the table's topic is, and it goes first.
 */
import type { ChatAction, ChatMessage, Fits } from "./message.js";

/** One effect in words: with its arguments in full, and with them cut. */
export interface EffectLines {
  full: string[];
  cut: string[];
}

/** An approval request in pieces (render.ts builds them in the owner's language). */
export interface ApprovalParts {
  title: string;
  /** The table line with the topic cut to at most `topicChars` characters. */
  table: (topicChars: number) => string;
  /** The topic's length uncut. */
  topicChars: number;
  /** The task and proposer lines. */
  task: string[];
  effects: EffectLines[];
  /** Every effect shown in full: the line on whether a tap counts, and both buttons. */
  complete: { last: string[]; actions: ChatAction[] };
  /** Not every effect shown in full: the "N more" line, the line on how to approve by key, and Reject alone. */
  partial: { more: (count: number) => string; last: string; actions: ChatAction[] };
}

/** The message for `parts` that `fits`: the complete form if any topic length allows it, else the partial form listing the most effects. */
export function fitApproval(parts: ApprovalParts, fits: Fits): ChatMessage {
  const complete = (topic: number): ChatMessage => ({
    title: parts.title,
    lines: [parts.table(topic), ...parts.task, ...parts.effects.flatMap((e) => e.full), ...parts.complete.last],
    actions: parts.complete.actions,
  });
  const whole = longestTopic(complete, parts.topicChars, fits);
  if (whole) return whole;
  const partial =
    (listed: number) =>
    (topic: number): ChatMessage => {
      const omitted = parts.effects.length - listed;
      const more = omitted > 0 ? [parts.partial.more(omitted)] : [];
      const effects = parts.effects.slice(0, listed).flatMap((e) => e.cut);
      return {
        title: parts.title,
        lines: [parts.table(topic), ...parts.task, ...effects, ...more, parts.partial.last],
        actions: parts.partial.actions,
      };
    };
  // Fewer effects never make a message longer: find the most that fit with the topic cut away.
  let lo = 0;
  let hi = parts.effects.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(partial(mid)(0))) lo = mid;
    else hi = mid - 1;
  }
  return longestTopic(partial(lo), parts.topicChars, fits) ?? partial(0)(0);
}

/** `form` with the longest topic (or other cut text) that fits, or null when even none does not fit. */
export function longestTopic(form: (topic: number) => ChatMessage, topicChars: number, fits: Fits): ChatMessage | null {
  if (fits(form(topicChars))) return form(topicChars);
  if (!fits(form(0))) return null;
  let lo = 0;
  let hi = topicChars - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(form(mid))) lo = mid;
    else hi = mid - 1;
  }
  return form(lo);
}
