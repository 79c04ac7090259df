/**
 * At-least-once delivery (docs/SPEC.md §11.4): the owner's object is killed in the middle of a
 * send, after the platform took the message or before it answered, and the next alarm sends it
 * again with the resend mark and the same duplicate guard (LINE's X-Line-Retry-Key, Discord's
 * enforced nonce); from the second interruption on it backs off, after the retry budget the notice
 * is recorded as not delivered, and the owner's channel health says so.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import { BACKOFF_MS, MAX_ATTEMPTS } from "../../durable-objects/owner/outbox.js";
import type { ChatPlatform, Notification, Signer } from "../../src/protocol/index.js";
import {
  bindVia,
  drain,
  killedMidSend,
  ownerClient,
  ownerDO,
  requests,
  runAlarm,
  script,
} from "../support/chat-driver.js";
import { keyOf } from "../support/table-fixture.js";

const closed = (table: string, seq: number): Notification => ({
  type: "table_closed",
  id: `${table}:${seq}:table_closed`,
  table,
  topic: "t",
  seq,
  reason: "decision",
});

const approval = (table: string, seq: number): Notification => ({
  type: "approval_needed",
  id: `${table}:${seq}:approval_needed`,
  table,
  topic: "Who updates the taskboard?",
  task: `${seq}.rsn8241`,
  proposal_seq: seq,
  proposer: "x",
  effects: [{ owner: "jenny", resource: "taskboard", action: "create_card", args: { title: `card ${seq}` } }],
  chat_approve: false,
});

async function notify(owner: Signer, events: Notification[]) {
  return ownerDO(owner.publicKeyText).notify({ owner_key: owner.publicKeyText, events });
}

/** An owner with `account` bound on `platform` (Discord: in channel `chat`) and its first message delivered. */
async function boundOwner(name: string, platform: ChatPlatform, account: string, chat = account): Promise<Signer> {
  const owner = await keyOf(`owner:${name}`);
  await bindVia(platform, owner, account, chat);
  await drain(owner.publicKeyText);
  return owner;
}

/** What the fake recorded for a chat after the channel's first message: each send's text and whether the platform delivered it. */
async function sends(match: string, text: (body: unknown) => string) {
  return (await requests(match)).slice(1).map((r) => ({ text: text(r.body), delivered: r.delivered }));
}
const telegramText = (body: unknown) => (body as { text: string }).text;

/** The channel's attempts for `event`, oldest first: status, reason, resends. */
async function attemptsOf(owner: Signer, event: string) {
  const [channel] = (await ownerClient(owner).channels()).channels;
  return channel!.recent
    .filter((a) => a.event === event)
    .reverse()
    .map((a) => [a.status, a.reason, a.resends]);
}

/** Moves every queued row of `owner` past its backoff, as the clock would. */
async function skipBackoff(owner: Signer, set = "next_at = 0"): Promise<void> {
  await runInDurableObject(ownerDO(owner.publicKeyText), (_o: OwnerDO, state) =>
    state.storage.sql.exec(`UPDATE outbox SET ${set} WHERE state = 'queued'`),
  );
}

describe("when the owner's object is killed mid-send", () => {
  it("sends a Telegram notice again, marked as sent again, when it was killed after Telegram took it", async () => {
    const owner = await boundOwner("resend-tg-after", "telegram", "8201");
    await notify(owner, [closed("resend-tg-after", 3)]);
    await killedMidSend(owner.publicKeyText, '"chat_id":"8201"', "after-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);

    const sent = await sends('"chat_id":"8201"', telegramText);
    expect(sent.map((s) => [s.text.split("\n")[0], s.delivered])).toEqual([
      ["<b>Table closed</b>", true],
      ["<b>Table closed (sent again)</b>", true],
    ]);
    expect(await attemptsOf(owner, "resend-tg-after:3:table_closed")).toEqual([
      ["queued", null, 0],
      ["failed", "interrupted", 0],
      ["delivered", null, 1],
    ]);
    expect(await runAlarm(owner.publicKeyText)).toBe(false);
  });

  it("sends a Telegram notice again when it was killed before Telegram answered, so it reaches the chat", async () => {
    const owner = await boundOwner("resend-tg-before", "telegram", "8211");
    await notify(owner, [closed("resend-tg-before", 3)]);
    await killedMidSend(owner.publicKeyText, '"chat_id":"8211"', "before-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    const sent = await sends('"chat_id":"8211"', telegramText);
    expect(sent.map((s) => [s.text.split("\n")[0], s.delivered])).toEqual([
      ["<b>Table closed</b>", false],
      ["<b>Table closed (sent again)</b>", true],
    ]);
  });

  it("pushes to LINE again with the same X-Line-Retry-Key, and LINE's 409 for it counts as delivered", async () => {
    const owner = await boundOwner("resend-line", "line", "U8221");
    await notify(owner, [closed("resend-line", 3)]);
    await killedMidSend(owner.publicKeyText, '"to":"U8221"', "after-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);

    const pushes = (await requests('"to":"U8221"')).slice(1);
    expect(pushes.map((p) => p.delivered)).toEqual([true, false]);
    expect(pushes[1]!.headers["x-line-retry-key"]).toBe(pushes[0]!.headers["x-line-retry-key"]);
    expect(JSON.stringify(pushes[1]!.body)).toContain("Table closed (sent again)");
    const [channel] = (await ownerClient(owner).channels()).channels;
    expect(channel!.last_attempt).toMatchObject({ status: "delivered", http_status: 409, resends: 1 });
  });

  it("posts to Discord again with the same enforced nonce, marked as sent again", async () => {
    const owner = await boundOwner("resend-discord", "discord", "8231", "98231");
    await notify(owner, [closed("resend-discord", 3)]);
    await killedMidSend(owner.publicKeyText, "/discord/channels/98231/messages", "after-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);

    const posts = (await requests("/discord/channels/98231/messages")).slice(1);
    const bodies = posts.map((p) => p.body as { content: string; nonce: string; enforce_nonce: boolean });
    expect(posts.map((p) => p.delivered)).toEqual([true, false]);
    expect(bodies[1]).toMatchObject({ nonce: bodies[0]!.nonce, enforce_nonce: true });
    expect(bodies[1]!.content.split("\n")[0]).toBe("**Table closed \\(sent again\\)**");
  });

  it("gets every one of 12 approval requests to Telegram at least once when the object dies after one ack and before another answer", async () => {
    const owner = await boundOwner("resend-many", "telegram", "8241");
    const chat = '"chat_id":"8241"';
    await notify(
      owner,
      Array.from({ length: 12 }, (_, i) => approval("resend-many", i + 1)),
    );
    await killedMidSend(owner.publicKeyText, "Task 3.rsn8241", "after-delivery");
    await killedMidSend(owner.publicKeyText, "Task 8.rsn8241", "before-delivery");
    for (let runs = 0; await runAlarm(owner.publicKeyText); runs++) expect(runs).toBeLessThan(3);

    const sent = await sends(chat, telegramText);
    for (let i = 1; i <= 12; i++) {
      expect(
        sent.filter((s) => s.delivered && s.text.includes(`Task ${i}.rsn8241`)).length,
        `task ${i}`,
      ).toBeGreaterThanOrEqual(1);
    }
    const repeats = sent.filter((s) => s.text.startsWith("<b>Approval needed (sent again)</b>"));
    expect(repeats.map((s) => /Task (\d+)\.rsn8241/.exec(s.text)![1]).sort()).toEqual(["3", "8"]);
    expect(sent).toHaveLength(14);
  });
});

describe("when a send is interrupted again and again", () => {
  it("backs off from the second interruption, gives up after the retry budget, and the owner's channel health shows the notice as not delivered", async () => {
    const owner = await boundOwner("resend-budget", "telegram", "8251");
    const chat = '"chat_id":"8251"';
    const event = "resend-budget:3:table_closed";
    await notify(owner, [closed("resend-budget", 3)]);
    await killedMidSend(owner.publicKeyText, chat, "after-delivery");
    await killedMidSend(owner.publicKeyText, chat, "after-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    expect(await sends(chat, telegramText)).toHaveLength(2);
    const [row] = await runInDurableObject(ownerDO(owner.publicKeyText), (_o: OwnerDO, state) =>
      state.storage.sql
        .exec("SELECT state, next_at - updated_at AS wait FROM outbox WHERE event_id = ?", event)
        .toArray(),
    );
    expect(row).toEqual({ state: "queued", wait: BACKOFF_MS });

    // As if the sends in between were interrupted too: the last attempt of the budget.
    await skipBackoff(owner, `next_at = 0, attempts = ${MAX_ATTEMPTS - 1}`);
    await killedMidSend(owner.publicKeyText, chat, "after-delivery");
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    expect(await runAlarm(owner.publicKeyText)).toBe(false);
    expect(await sends(chat, telegramText)).toHaveLength(3);

    const [channel] = (await ownerClient(owner).channels()).channels;
    expect(channel).toMatchObject({ undelivered: 1, last_undelivered: { event, reason: "interrupted" } });
    expect(channel!.last_attempt).toMatchObject({ event, status: "failed", reason: "interrupted", resends: 2 });
    expect(channel!.last_attempt!.detail).toContain(`given up after ${MAX_ATTEMPTS} attempts`);
  });
});

describe("when the platform answers a 5xx or a 429", () => {
  it("marks the retry after a 5xx as sent again (Telegram may have taken it), and not the retry after a 429", async () => {
    const owner = await boundOwner("resend-5xx", "telegram", "8261");
    const chat = '"chat_id":"8261"';
    await script({ match: chat, status: 502, body: { ok: false, description: "Bad Gateway" } });
    await notify(owner, [closed("resend-5xx", 3)]);
    expect(await drain(owner.publicKeyText)).toMatchObject({ failed: 1 });
    await skipBackoff(owner);
    expect(await drain(owner.publicKeyText)).toMatchObject({ delivered: 1 });

    await script({
      match: chat,
      status: 429,
      body: { ok: false, description: "Too Many Requests", parameters: { retry_after: 1 } },
    });
    await notify(owner, [closed("resend-5xx", 4)]);
    expect(await drain(owner.publicKeyText)).toMatchObject({ failed: 1 });
    await skipBackoff(owner);
    expect(await drain(owner.publicKeyText)).toMatchObject({ delivered: 1 });

    const titles = (await sends(chat, telegramText)).map((s) => s.text.split("\n")[0]);
    expect(titles).toEqual([
      "<b>Table closed</b>",
      "<b>Table closed (sent again)</b>",
      "<b>Table closed</b>",
      "<b>Table closed</b>",
    ]);
  });
});

describe("when many newer events arrive before a notice is sent", () => {
  it("keeps the queued notice's event, so it is still delivered", async () => {
    const owner = await boundOwner("resend-keep", "telegram", "8271");
    await notify(owner, [closed("resend-keep", 3)]);
    const opened = (i: number): Notification => ({
      type: "table_opened",
      id: `resend-keep-${i}:1:table_opened`,
      table: `resend-keep-${i}`,
      topic: "t",
      seq: 1,
    });
    for (let batch = 0; batch < 16; batch++)
      await notify(
        owner,
        Array.from({ length: 64 }, (_, i) => opened(batch * 64 + i)),
      );
    expect(await drain(owner.publicKeyText)).toMatchObject({ sent: 1, delivered: 1 });
    expect((await sends('"chat_id":"8271"', telegramText)).map((s) => s.text.split("\n")[0])).toEqual([
      "<b>Table closed</b>",
    ]);
  });
});
