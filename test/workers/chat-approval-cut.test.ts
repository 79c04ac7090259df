/**
 * An approval request too large for a chat message (docs/SPEC.md §11.6): 16 effects of nearly the
 * largest arguments the protocol allows, sent to Telegram, LINE and Discord through the loopback
 * fake. Each message stays within its platform's documented limits (test/support/chat-limits.ts),
 * lists what fits, says how many effects it does not show, carries Reject alone and ends with the
 * whole line on approving with the owner key; an Approve crafted for it records nothing.
 */
import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/protocol/index.js";
import { buttonData, lastWithButtons, tapVia } from "../support/chat-driver.js";
import { buttonVerbs, limitViolations, visibleText } from "../support/chat-limits.js";
import { accountsFrom, bound, proposed, relay, room, taskState } from "../support/chat-room.js";
import { headUnmoved } from "../support/relay-http.js";

/** 16 effects jenny's rules cover, each with about 1900 characters of arguments (the protocol allows 2048 bytes). */
const SIXTEEN: Effect[] = Array.from({ length: 16 }, (_, i) => ({
  owner: "jenny",
  resource: "taskboard",
  action: "create_card",
  args: { i, note: "x".repeat(1900) },
}));

describe("an approval request with 16 large effects", () => {
  it.each(accountsFrom(96501))(
    "on %s lists what fits, counts what it leaves out, offers Reject alone and ends with how to approve by key",
    async (platform, account, chat) => {
      const id = `chat-cut-${platform}`;
      const k = await room(id);
      await bound(platform, k.jenny, account, chat);
      const task = await proposed(id, k, SIXTEEN);

      const body = await lastWithButtons(platform, chat);
      expect(limitViolations(platform, body)).toEqual([]);
      const lines = visibleText(platform, body).split("\n");
      const listed = lines.filter((line) => line === "• jenny: create_card on taskboard").length;
      expect(listed).toBeGreaterThan(0);
      expect(listed).toBeLessThan(16);
      expect(lines.at(-2)).toBe(`…and ${16 - listed} more effect(s), not shown here.`);
      expect(lines.at(-1)).toBe(
        `This message cannot show all 16 effects in full, so it has no Approve button. To approve, sign with your key: trestle approve ${task} --table ${id} on your own machine, or the MCP approve tool. Reject works here.`,
      );
      expect(buttonVerbs(platform, body)).toEqual(["reject"]);
    },
  );

  describe("when someone taps an Approve crafted for that message", () => {
    it.each(accountsFrom(96511))(
      "on %s records nothing and says how to sign; Reject from it still counts",
      async (platform, account, chat) => {
        const id = `chat-cut-tap-${platform}`;
        const k = await room(id);
        await bound(platform, k.jenny, account, chat);
        const task = await proposed(id, k, SIXTEEN);
        const reject = await buttonData(platform, chat, "reject");
        const approve = reject.replace("t1.r.", "t1.a.");

        const tapped = await headUnmoved(relay, id, () => tapVia(platform, account, approve, chat));
        expect(tapped.text).toContain("did not show every effect in full");
        expect(tapped.text.replace(/\\/g, "")).toContain(`trestle approve ${task} --table ${id}`);
        expect(await taskState(id, k, task)).toBe("awaiting_approval");

        expect((await tapVia(platform, account, reject, chat)).text).toContain(`Rejected task ${task}`);
        expect(await taskState(id, k, task)).toBe("rejected");
      },
    );
  });
});
