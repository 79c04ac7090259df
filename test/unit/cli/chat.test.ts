/**
 * `trestle bind`, `unbind` and `channels` end to end: the real CLI against the in-process relay,
 * whose chat API bases point at the loopback fake of Telegram and LINE. Binding is completed by
 * webhooks signed as each platform signs them; the relay's own outbox alarm delivers the first
 * message, so channel states come from real attempts (delivered, 401, 403, LINE's quota 429).
 */
import { mkdtempSync } from "node:fs";
import { createHmac } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OwnerClient } from "../../../src/client/owner.js";
import { readKeyFile, ownerKeyPath } from "../../../src/client/node.js";
import type { ChannelHealth, ChannelsResponse } from "../../../src/protocol/index.js";
import { cli } from "../../support/cli.js";
import { startFakeChatApi, type FakeChatApi } from "../../support/fake-chat-api.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";

const SECRETS = {
  TELEGRAM_BOT_TOKEN: "123:cli-telegram-token",
  TELEGRAM_WEBHOOK_SECRET: "cli-telegram-webhook-secret",
  TELEGRAM_BOT_USERNAME: "trestle_cli_bot",
  LINE_CHANNEL_ACCESS_TOKEN: "cli-line-token",
  LINE_CHANNEL_SECRET: "cli-line-secret",
  OUTBOX_DELAY_MS: "0",
};

let fake: FakeChatApi;
let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;

beforeAll(async () => {
  fake = await startFakeChatApi();
  relay = await startRelay({
    vars: { ...SECRETS, TELEGRAM_API_BASE: `${fake.url}/telegram`, LINE_API_BASE: `${fake.url}/line` },
  });
  home = mkdtempSync(join(tmpdir(), "trestle-chat-cli-"));
  t = cli(home, relay.url);
  for (const owner of ["jenny", "ops", "tao"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
}, 60_000);
afterAll(async () => {
  await relay?.dispose();
  await new Promise<void>((resolve) => fake?.server.close(() => resolve()));
});

let update = 5_000_000;
let lineEvent = 1;

/** Sends `text` to the Telegram bot from `user`'s private chat, with the webhook secret. */
async function telegram(user: number, text: string): Promise<Record<string, unknown>> {
  const body = JSON.stringify({
    update_id: update++,
    message: {
      message_id: 1,
      date: 1,
      from: { id: user, is_bot: false, first_name: "J" },
      chat: { id: user, type: "private" },
      text,
    },
  });
  const res = await fetch(`${relay.url}/hooks/telegram`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRETS.TELEGRAM_WEBHOOK_SECRET },
  });
  return (await res.json()) as Record<string, unknown>;
}

/** Sends `text` to the LINE bot from `user`, signed with base64 HMAC-SHA256 of the raw body. */
async function line(user: string, text: string): Promise<number> {
  const event = {
    type: "message",
    webhookEventId: `01CLI${lineEvent++}`,
    timestamp: 1,
    replyToken: `cli-reply-${lineEvent}`,
    source: { type: "user", userId: user },
    mode: "active",
    message: { type: "text", id: "1", text },
  };
  const body = JSON.stringify({ destination: "U0", events: [event] });
  const signature = createHmac("sha256", SECRETS.LINE_CHANNEL_SECRET).update(body).digest("base64");
  return (
    await fetch(`${relay.url}/hooks/line`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-line-signature": signature },
    })
  ).status;
}

/** Makes the fake answer the next request containing `match` with `status` and `body`. */
async function script(match: string, status: number, body: unknown = {}): Promise<void> {
  await fetch(`${fake.url}/__control/script`, { method: "POST", body: JSON.stringify({ match, status, body }) });
}

/** `trestle bind` for `owner`, as JSON. */
async function code(owner: string, platform: string): Promise<string> {
  const run = await t.json(["bind", platform, "--owner", owner]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return run.body!.code as string;
}

/** Jenny's channels, read in-process, once `ready` holds for them (the relay's alarm delivers on its own time). */
async function channelsWhen(owner: string, ready: (channels: ChannelHealth[]) => boolean): Promise<ChannelsResponse> {
  const key = await readKeyFile(ownerKeyPath(home, owner), "owner");
  const client = new OwnerClient(relay.url, key.signer);
  for (;;) {
    const health = await client.channels();
    if (ready(health.channels)) return health;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const find = (channels: ChannelHealth[], account: string) => channels.find((c) => c.account === account);
const attempted = (channels: ChannelHealth[], account: string, status: string, times = 1) =>
  (find(channels, account)?.recent.filter((a) => a.status === status).length ?? 0) >= times;

describe("trestle bind", () => {
  it("prints the one-time code and what to send to which bot, pinning the relay on first use", async () => {
    const run = await t.run(["bind", "telegram", "--owner", "ops"]);
    expect(run.code, run.stderr).toBe(0);
    const shown = /bind code for telegram: ([A-Z2-9]{4}-[A-Z2-9]{4}) \(owner ops; single use, valid until \d{4}-/.exec(
      run.stdout,
    );
    expect(shown).not.toBeNull();
    expect(run.stdout).toContain(`send "/start ${shown![1]}" to @trestle_cli_bot within 10 minutes`);
    expect(run.stdout).toContain("keep it to yourself");
    expect(run.stderr).toContain("pinned relay");
  });

  it("prints JSON with the code, its expiry, the instructions and the language", async () => {
    const run = await t.json(["bind", "line", "--owner", "ops", "--lang", "zh-Hant"]);
    expect(run.code).toBe(0);
    expect(run.body).toMatchObject({
      owner: "ops",
      platform: "line",
      lang: "zh-Hant",
      code: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/),
      expires: expect.any(Number),
    });
    expect(run.body!.send).toContain(`Send "${run.body!.code}" to the relay's LINE official account`);
  });

  describe("when the command line is wrong", () => {
    it.each([
      [["bind", "whatsapp", "--owner", "ops"], "not a chat app"],
      [["bind", "telegram", "--owner", "ops", "--lang", "fr"], "--lang must be"],
      [["bind", "--owner", "ops"], "missing <platform>"],
      [["unbind", "telegram", "--owner", "ops"], "missing <account>"],
      [["unbind", "telegram", "not an id!", "--owner", "ops"], "not a chat account id"],
    ])("exits 2 for %j", async (args, message) => {
      const run = await t.run(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    });
  });

  it("exits 7 without the owner's key file, and 6 when the relay cannot be reached", async () => {
    expect((await t.run(["channels", "--owner", "nobody"])).code).toBe(7);
    const down = await t.run(["channels", "--owner", "ops", "--relay", "http://127.0.0.1:9"]);
    expect(down.code).toBe(6);
    expect(down.stderr).toContain("E_NETWORK");
  });
});

describe("trestle channels", () => {
  it("shows a channel that never delivered as UNPROVEN with its failed attempt, and one that delivered as ok", async () => {
    await script('"chat_id":"7002"', 401, { ok: false, description: "Unauthorized" });
    expect((await telegram(7002, `/start ${await code("jenny", "telegram")}`)).text as string).toContain("Bound.");
    expect((await telegram(7004, `/start ${await code("jenny", "telegram")}`)).text as string).toContain("Bound.");
    await channelsWhen("jenny", (c) => attempted(c, "7002", "failed") && attempted(c, "7004", "delivered"));

    const run = await t.run(["channels", "--owner", "jenny"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^owner jenny \([A-Za-z0-9_-]{43}\)$/);
    expect(lines.find((l) => l.startsWith("telegram 7002 "))).toMatch(
      /UNPROVEN {2}never delivered; last attempt failed HTTP 401 unauthorized: Unauthorized at /,
    );
    expect(lines.find((l) => l.startsWith("telegram 7004 "))).toMatch(
      / {2}ok {2}1 delivered, last \d{4}-.*; last attempt delivered HTTP 200 at /,
    );
  });

  it("shows LINE's monthly quota as such, and a channel whose newest attempt failed as failed", async () => {
    expect(await line("U7003", await code("jenny", "line"))).toBe(200);
    await channelsWhen("jenny", (c) => attempted(c, "U7003", "delivered"));
    await script('"to":"U7003"', 429, { message: "You have reached your monthly limit." });
    expect(await line("U7003", await code("jenny", "line"))).toBe(200);
    await script('"chat_id":"7004"', 403, { ok: false, description: "Forbidden: bot was blocked by the user" });
    expect((await telegram(7004, `/start ${await code("jenny", "telegram")}`)).text as string).toContain("Bound.");
    await channelsWhen("jenny", (c) => attempted(c, "U7003", "failed") && attempted(c, "7004", "failed"));

    const run = await t.json(["channels", "--owner", "jenny"]);
    expect(run.code).toBe(0);
    const states = Object.fromEntries((run.body!.channels as ChannelHealth[]).map((c) => [c.account, c.state]));
    expect(states).toEqual({ "7002": "unproven", "7004": "failing", U7003: "quota_exhausted" });
    expect(run.body).toMatchObject({ owner: "jenny", has_proven_channel: true });

    const human = (await t.run(["channels", "--owner", "jenny"])).stdout.split("\n");
    expect(human.find((l) => l.startsWith("line U7003 "))).toMatch(
      /LINE monthly quota exhausted {2}1 delivered, .*last attempt failed HTTP 429 quota_exhausted: You have reached your monthly limit\./,
    );
    expect(human.find((l) => l.startsWith("telegram 7004 "))).toMatch(
      / {2}failed {2}1 delivered, .*last attempt failed HTTP 403 blocked: Forbidden: bot was blocked by the user/,
    );
  });

  it("says when nothing is bound, and when nothing has delivered yet", async () => {
    expect((await t.run(["channels", "--owner", "tao"])).stdout).toContain(
      "no chat account is bound: trestle bind telegram|line|discord",
    );
    await script('"chat_id":"7010"', 401, { ok: false, description: "Unauthorized" });
    await telegram(7010, `/start ${await code("tao", "telegram")}`);
    await channelsWhen("tao", (c) => attempted(c, "7010", "failed"));
    expect((await t.run(["channels", "--owner", "tao"])).stdout).toContain(
      "no channel has delivered yet: proposals that need your approval get E_NO_APPROVER",
    );
  });
});

describe("trestle unbind", () => {
  it("removes a bound account, and changes nothing when run again", async () => {
    const first = await t.run(["unbind", "telegram", "7002", "--owner", "jenny"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("unbound telegram account 7002 from owner jenny");
    const again = await t.json(["unbind", "telegram", "7002", "--owner", "jenny"]);
    expect(again).toMatchObject({
      code: 0,
      body: { owner: "jenny", platform: "telegram", account: "7002", removed: false },
    });
    const listed = await t.json(["channels", "--owner", "jenny"]);
    expect((listed.body!.channels as ChannelHealth[]).map((c) => c.account).sort()).toEqual(["7004", "U7003"]);
    expect((await telegram(7002, "/status")).text as string).toContain("not bound");
  });
});
