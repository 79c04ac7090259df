/**
 * The resend mark (docs/SPEC.md §11.4): a notice sent again after a send that may have arrived
 * says so in its title, in the owner's language, within each platform's limits; whether an
 * approval request offers Approve never depends on the mark.
 */
import { describe, expect, it } from "vitest";
import { formatDiscord } from "../../../src/chat/platforms/discord.js";
import { t } from "../../../src/chat/i18n.js";
import { formatLine } from "../../../src/chat/platforms/line.js";
import type { ChatMessage } from "../../../src/chat/message.js";
import { messageFor } from "../../../src/chat/send.js";
import { formatTelegram } from "../../../src/chat/platforms/telegram.js";
import { LangSchema, type ApprovalNeeded, type ChatPlatform, type Notification } from "../../../src/protocol/index.js";
import { buttonVerbs, limitViolations, visibleText } from "../../support/chat-limits.js";

const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const PLATFORMS: readonly ChatPlatform[] = ["telegram", "line", "discord"];

const closed: Notification = {
  type: "table_closed",
  id: "t-459:9:table_closed",
  table: "t-459",
  topic: "Ship #459?",
  seq: 9,
  reason: "decision",
};
const request = (n: number): ApprovalNeeded => ({
  type: "approval_needed",
  id: "t-459:12:approval_needed",
  table: "t-459",
  topic: "Ship #459?",
  task: "12.jenny",
  proposal_seq: 12,
  proposer: "judge",
  effects: [{ owner: "jenny", resource: "taskboard", action: "create_card", args: { note: "x".repeat(n) } }],
  chat_approve: true,
});

function wire(platform: ChatPlatform, message: ChatMessage): Record<string, unknown> {
  if (platform === "telegram") return { chat_id: "1", ...formatTelegram(message) };
  if (platform === "line") return { to: "U1", messages: formatLine(message) };
  return formatDiscord(message);
}

describe("a notice sent again", () => {
  it.each(LangSchema.options)("says so in its title in %s, on every platform, and a first send does not", (lang) => {
    for (const platform of PLATFORMS) {
      expect(messageFor(platform, closed, KEY, lang).title).toBe(t(lang, "title.table_closed"));
      expect(messageFor(platform, closed, KEY, lang, true).title).toBe(
        t(lang, "mark.resend", { title: t(lang, "title.table_closed") }),
      );
    }
  });

  it.each(PLATFORMS)(
    "offers Approve on %s exactly when the first send does, showing the effect in full within the limits, around where it stops fitting",
    (platform) => {
      const sent = (n: number, resend: boolean) => wire(platform, messageFor(platform, request(n), KEY, "en", resend));
      const offers = (n: number) => buttonVerbs(platform, sent(n, false)).includes("approve");
      // The largest arguments with which the first send still offers Approve.
      let [lo, hi] = [0, 6000];
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (offers(mid)) lo = mid;
        else hi = mid - 1;
      }
      expect(lo).toBeGreaterThan(1000);
      for (let n = lo - 20; n <= lo + 20; n += 1) {
        const again = sent(n, true);
        expect(limitViolations(platform, again)).toEqual([]);
        expect(buttonVerbs(platform, again), `n = ${n}`).toEqual(buttonVerbs(platform, sent(n, false)));
        if (n > lo) continue;
        const text = visibleText(platform, again);
        expect(text).toContain(`{"note":"${"x".repeat(n)}"}`);
        expect(text.split("\n").at(-1), `n = ${n}: nothing is cut`).toBe(t("en", "line.chat_yes"));
      }
    },
  );
});
