/**
 * Approval requests counted as each platform counts (docs/SPEC.md §11.6), sent through the loopback
 * fake, which refuses a text its platform would refuse, counted as that platform counts
 * (test/support/fake-chat-api.ts): Telegram the text after entities parsing in code points, LINE
 * the text message in UTF-16 code units, Discord the content as sent in code points. A request
 * that fits as its platform counts keeps Approve and shows every effect in full, whatever its HTML
 * or its UTF-16 length; one that does not drops Approve; the platform takes every message.
 */
import { describe, expect, it } from "vitest";
import type { ChatPlatform, Effect } from "../../src/protocol/index.js";
import { lastWithButtons, requests } from "../support/chat-driver.js";
import { bodyChars, buttonVerbs, limitViolations, visibleText } from "../support/chat-limits.js";
import { accountsFrom, bound, proposed, room } from "../support/chat-room.js";

/** `count` effects jenny's rules cover, each with arguments of `n` copies of `unit`. */
const effects = (count: number, unit: string, n: number): Effect[] =>
  Array.from({ length: count }, (_, i) => ({
    owner: "jenny",
    resource: "taskboard",
    action: "create_card",
    args: { i, note: unit.repeat(n) },
  }));

/** The fake's record of the newest message with buttons sent to `chat`: whether the platform took it. */
async function taken(platform: ChatPlatform, chat: string, body: Record<string, unknown>): Promise<boolean> {
  const match =
    platform === "telegram"
      ? `"chat_id":"${chat}"`
      : platform === "line"
        ? `"to":"${chat}"`
        : `/discord/channels/${chat}/messages`;
  const sent = (await requests(match)).filter((r) => JSON.stringify(r.body) === JSON.stringify(body));
  return sent.length === 1 && sent[0]!.delivered;
}

const [telegram, line, discord] = accountsFrom(96601);

describe("an approval request counted as its platform counts", () => {
  it("on Telegram keeps Approve when its HTML is far over 4096 characters but its text after entities parsing fits, and Telegram takes it", async () => {
    const [platform, account, chat] = telegram!;
    const id = "chat-counted-html";
    const k = await room(id);
    await bound(platform, k.jenny, account, chat);
    await proposed(id, k, effects(2, "<&>", 500));

    const body = await lastWithButtons(platform, chat);
    expect(String(body.text).length).toBeGreaterThan(4096);
    expect(bodyChars(platform, body)).toBeLessThanOrEqual(4096);
    expect(limitViolations(platform, body)).toEqual([]);
    expect(buttonVerbs(platform, body)).toEqual(["approve", "reject"]);
    for (const i of [0, 1]) expect(visibleText(platform, body)).toContain(`{"i":${i},"note":"${"<&>".repeat(500)}"}`);
    expect(await taken(platform, chat, body)).toBe(true);
  });

  // 500 emoji are 2,000 bytes of arguments: one code point each on Telegram and Discord, two UTF-16 code units each on LINE.
  it.each([
    [...telegram!, 6, 500, ["approve", "reject"]],
    [...discord!, 3, 450, ["approve", "reject"]],
    [...line!, 6, 500, ["reject"]],
  ] as const)(
    "with emoji arguments on %s counts each as the platform does, and the platform takes the message",
    async (platform, account, chat, count, n, verbs: readonly string[]) => {
      const id = `chat-counted-emoji-${platform}`;
      const k = await room(id);
      await bound(platform, k.jenny, account, chat);
      await proposed(id, k, effects(count, "😀", n));

      const body = await lastWithButtons(platform, chat);
      expect(limitViolations(platform, body)).toEqual([]);
      expect(buttonVerbs(platform, body)).toEqual(verbs);
      const text = visibleText(platform, body);
      if (verbs.includes("approve")) {
        // Over the limit in UTF-16 code units, within it in code points.
        expect(text.length).toBeGreaterThan(platform === "telegram" ? 4096 : 2000);
        for (let i = 0; i < count; i += 1) expect(text).toContain(`{"i":${i},"note":"${"😀".repeat(n)}"}`);
      } else {
        // Within LINE's limit in code points, over it in UTF-16 code units: not every effect in full.
        expect(text.split("\n").at(-1)).toContain(
          `This message cannot show all ${count} effects in full, so it has no Approve button.`,
        );
      }
      expect(await taken(platform, chat, body)).toBe(true);
    },
  );
});
