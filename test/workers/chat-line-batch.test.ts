/**
 * A LINE delivery of many events stays within a free-plan invocation's 50 subrequests (docs/SPEC.md
 * §11.5): the webhook answers at most EVENTS_PER_INVOCATION events and queues the rest, and
 * each run of the chat directory's alarm answers as many again. Counted as the LINE API calls the
 * loopback fake receives per invocation, for a delivery signed exactly as LINE signs it.
 */
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EVENTS_PER_INVOCATION } from "../../src/chat/platforms/platform.js";
import { lineText, postLine, requests } from "../support/chat-driver.js";

const directory = () => env.CHAT_DIRECTORY.getByName("directory");
/** The LINE API calls the fake received for this test's users (reply tokens `reply-U985…`). */
const calls = async () => (await requests("reply-U985")).filter((r) => r.platform === "line");

describe("a LINE delivery of 64 events", () => {
  it("makes at most EVENTS_PER_INVOCATION LINE API calls per invocation, and answers every event once", async () => {
    expect(EVENTS_PER_INVOCATION).toBeLessThanOrEqual(40);
    const events = Array.from({ length: 64 }, (_, i) => lineText(`U985${String(i).padStart(3, "0")}`, "/status"));
    expect((await postLine(events)).status).toBe(200);
    const perInvocation = [(await calls()).length];
    while (await runDurableObjectAlarm(directory()))
      perInvocation.push((await calls()).length - perInvocation.reduce((a, b) => a + b, 0));

    expect(perInvocation).toEqual([10, 10, 10, 10, 10, 10, 4]);
    for (const n of perInvocation) expect(n).toBeLessThanOrEqual(EVENTS_PER_INVOCATION);
    const answered = (await calls()).map((r) => (r.body as { replyToken: string }).replyToken).sort();
    expect(answered).toEqual(events.map((e) => e.replyToken).sort());
    expect(JSON.stringify((await calls()).at(-1)!.body)).toContain("not bound to an owner yet");
  });

  describe("when LINE delivers the same events again", () => {
    it("answers none of them twice, from the webhook or from the queue", async () => {
      const events = Array.from({ length: 14 }, (_, i) => lineText(`U986${String(i).padStart(3, "0")}`, "/help"));
      const replies = async () => (await requests("reply-U986")).filter((r) => r.platform === "line");
      await postLine(events);
      await postLine(events);
      while (await runDurableObjectAlarm(directory()));
      expect((await replies()).map((r) => (r.body as { replyToken: string }).replyToken).sort()).toEqual(
        events.map((e) => e.replyToken).sort(),
      );
    });
  });
});
