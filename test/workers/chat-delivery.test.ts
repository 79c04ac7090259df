/**
 * Notification delivery (docs/SPEC.md §11.4): tables emit events to owners' OwnerDOs, the outbox
 * drains them to the loopback fakes of Telegram, LINE and Discord, every attempt is recorded, and
 * an alarm retry never sends a delivered message twice (sends cut short by a killed object:
 * chat-resend.test.ts).
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import type { Notification, Signer, TableConfig } from "../../src/protocol/index.js";
import {
  bindVia,
  drain,
  lineText,
  ownerClient,
  ownerDO,
  postLine,
  requests,
  runAlarm,
  script,
} from "../support/chat-driver.js";
import { RelayHttp } from "../support/relay-http.js";
import { keyOf } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

/** An open table whose owners have keys of their own (so no other test shares their OwnerDOs). */
async function chatTable(id: string, overrides: Partial<TableConfig> = {}) {
  const k = {
    tao: await keyOf(`owner:${id}:tao`),
    jenny: await keyOf(`owner:${id}:jenny`),
    x: await keyOf(`seat:${id}:x`),
    y: await keyOf(`seat:${id}:y`),
    h: await keyOf(`seat:${id}:h`),
  };
  const config: TableConfig = {
    id,
    topic: "Ship #459 <first> & fast?",
    owners: { tao: { public_key: k.tao.publicKeyText }, jenny: { public_key: k.jenny.publicKeyText } },
    seats: { x: { owner: "tao" }, y: { owner: "jenny" }, h: { owner: "tao", human: true } },
    topology: { kind: "open" },
    termination: { any: ["decision", { max_entries: 50 }] },
    ...overrides,
  };
  expect((await relay.create(k.tao, "tao", config)).status).toBe(201);
  return k;
}

async function settled(table: string): Promise<void> {
  await runInDurableObject(env.TABLES.getByName(table), (t: TableDO) => t.table.noticesSettled());
}

/** Sends `events` straight to an owner's DO, as a table (or, next round, the gateway) does. */
async function notify(owner: Signer, events: Notification[]) {
  return ownerDO(owner.publicKeyText).notify({ owner_key: owner.publicKeyText, events });
}

const closed = (table: string, seq: number): Notification => ({
  type: "table_closed",
  id: `${table}:${seq}:table_closed`,
  table,
  topic: "t",
  seq,
  reason: "decision",
});

describe("delivering notifications", () => {
  it("sends a decision and the closing to every bound channel, formatted and escaped per platform", async () => {
    const id = "chat-deliver";
    const k = await chatTable(id);
    await bindVia("telegram", k.tao, "8001");
    await bindVia("line", k.jenny, "U8002");
    await bindVia("discord", k.jenny, "8003", "98003");
    await drain(k.tao.publicKeyText);
    await drain(k.jenny.publicKeyText);
    for (const [key, seat] of [
      [k.x, "x"],
      [k.y, "y"],
      [k.h, "h"],
    ] as const) {
      expect(
        (
          await relay.join(id, seat === "y" ? k.jenny : k.tao, seat === "y" ? "jenny" : "tao", seat, key, {
            human: seat === "h",
          })
        ).status,
      ).toBe(201);
    }
    expect((await relay.say(id, k.x, { seat: "x", kind: "decision", body: "ship <b>#459</b> & *now*" })).status).toBe(
      201,
    );
    await settled(id);
    expect(await runAlarm(k.tao.publicKeyText)).toBe(true);
    expect(await runAlarm(k.jenny.publicKeyText)).toBe(true);

    const telegram = (await requests('"chat_id":"8001"'))
      .slice(1)
      .map((r) => r.body as { text: string; parse_mode: string });
    expect(telegram.map((m) => m.text.split("\n")[0])).toEqual(["<b>Decision reached</b>", "<b>Table closed</b>"]);
    expect(telegram[0]!.parse_mode).toBe("HTML");
    expect(telegram[0]!.text).toContain("ship &lt;b&gt;#459&lt;/b&gt; &amp; *now*");
    expect(telegram[0]!.text).toContain("Ship #459 &lt;first&gt; &amp; fast?");

    const line = (await requests('"to":"U8002"')).slice(1);
    expect(line.map((r) => r.path)).toEqual(["/line/v2/bot/message/push", "/line/v2/bot/message/push"]);
    expect(line[0]!.headers["x-line-retry-key"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(line[0]!.headers.authorization).toBe("Bearer test-line-access-token");
    expect(JSON.stringify(line[0]!.body)).toContain("ship <b>#459</b> & *now*");

    const discord = (await requests("/discord/channels/98003/messages"))
      .slice(1)
      .map((r) => r.body as { content: string; nonce: string; enforce_nonce: boolean; allowed_mentions: unknown });
    expect(discord[0]!.content).toContain("ship <b\\>\\#459</b\\> & \\*now\\*");
    expect(discord[0]).toMatchObject({ enforce_nonce: true, allowed_mentions: { parse: [] } });
    expect(discord[0]!.nonce.length).toBeLessThanOrEqual(25);

    const health = await ownerClient(k.jenny).channels();
    expect(health.channels.map((c) => [c.platform, c.state, c.delivered])).toEqual([
      ["line", "ok", 3],
      ["discord", "ok", 3],
    ]);
  });

  it("tells the owner of a human seat that the floor is theirs", async () => {
    const id = "chat-floor";
    const k = await chatTable(id, { floor: { max_bot_depth: 1 } });
    await bindVia("telegram", k.tao, "8011");
    await relay.join(id, k.tao, "tao", "x", k.x);
    await relay.join(id, k.tao, "tao", "h", k.h, { human: true });
    await relay.say(id, k.x, { seat: "x", kind: "say", body: "one bot turn" });
    await settled(id);
    await drain(k.tao.publicKeyText);
    const texts = (await requests('"chat_id":"8011"')).map((r) => (r.body as { text: string }).text);
    expect(texts.some((t) => t.startsWith("<b>The floor is yours</b>") && t.includes("Seat h holds the floor"))).toBe(
      true,
    );
  });

  it("keeps a channel UNPROVEN until its first delivery, and that is what hasProvenChannel reports", async () => {
    const owner = await keyOf("owner:deliver-unproven");
    await script({ match: '"chat_id":"8021"', status: 500, body: { ok: false, description: "Internal Server Error" } });
    await bindVia("telegram", owner, "8021");
    await drain(owner.publicKeyText);
    const proven = () =>
      runInDurableObject(ownerDO(owner.publicKeyText), (o: OwnerDO) => o.hasProvenChannel(owner.publicKeyText));
    expect((await ownerClient(owner).channels()).channels[0]).toMatchObject({
      state: "unproven",
      last_attempt: { status: "failed", http_status: 500, reason: "server_error" },
    });
    expect(await proven()).toEqual({ ok: true, value: false });
  });
});

describe("the attempt log", () => {
  it("records each attempt per channel: queued when the event enters the outbox, then delivered, as GET /owners/:key/channels shows", async () => {
    const owner = await keyOf("owner:deliver-log");
    await bindVia("telegram", owner, "8041");
    await notify(owner, [closed("log-table", 3)]);
    const queued = (await ownerClient(owner).channels()).channels[0]!;
    expect(queued).toMatchObject({
      state: "unproven",
      delivered: 0,
      last_attempt: { event: "log-table:3:table_closed", status: "queued", http_status: null, reason: null },
    });
    await drain(owner.publicKeyText);
    const sent = (await ownerClient(owner).channels()).channels[0]!;
    expect(sent.state).toBe("ok");
    expect(sent.recent.filter((a) => a.event === "log-table:3:table_closed").map((a) => a.status)).toEqual([
      "delivered",
      "queued",
    ]);
  });
});

describe("when a platform refuses", () => {
  it("shows LINE's monthly-quota 429 as quota_exhausted and does not retry it", async () => {
    const owner = await keyOf("owner:deliver-quota");
    await bindVia("line", owner, "U8031");
    await drain(owner.publicKeyText);
    await script({ match: '"to":"U8031"', status: 429, body: { message: "You have reached your monthly limit." } });
    await notify(owner, [closed("quota-table", 9)]);
    expect(await drain(owner.publicKeyText)).toMatchObject({ sent: 1, failed: 1, next: null });
    const [channel] = (await ownerClient(owner).channels()).channels;
    expect(channel).toMatchObject({
      state: "quota_exhausted",
      delivered: 1,
      last_attempt: { status: "failed", http_status: 429, reason: "quota_exhausted" },
    });
    expect(channel!.last_attempt!.detail).toContain("monthly limit");
  });

  it("retries an ordinary 429 after Telegram's retry_after, and a 5xx with backoff, then delivers", async () => {
    const owner = await keyOf("owner:deliver-retry");
    await bindVia("telegram", owner, "8041");
    await drain(owner.publicKeyText);
    await script({
      match: '"chat_id":"8041"',
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: "Too Many Requests: retry after 7",
        parameters: { retry_after: 7 },
      },
    });
    await notify(owner, [closed("retry-table", 3)]);
    const before = Date.now();
    const report = await drain(owner.publicKeyText);
    expect(report).toMatchObject({ sent: 1, failed: 1 });
    expect(report.next!).toBeGreaterThanOrEqual(before + 7000);
    expect(await drain(owner.publicKeyText)).toMatchObject({ sent: 0 });
    expect((await ownerClient(owner).channels()).channels[0]).toMatchObject({
      state: "failing",
      last_attempt: { reason: "rate_limited", http_status: 429 },
    });

    await runInDurableObject(ownerDO(owner.publicKeyText), (_o: OwnerDO, state) =>
      state.storage.sql.exec("UPDATE outbox SET next_at = 0 WHERE state = 'queued'"),
    );
    expect(await drain(owner.publicKeyText)).toMatchObject({ sent: 1, delivered: 1, next: null });
    expect((await ownerClient(owner).channels()).channels[0]).toMatchObject({ state: "ok", delivered: 2 });
  });

  it("fails a 401 (bad token) and a 403 (bot blocked) at once, recording status and reason", async () => {
    const owner = await keyOf("owner:deliver-401");
    await bindVia("telegram", owner, "8051");
    await drain(owner.publicKeyText);
    await script({
      match: '"chat_id":"8051"',
      status: 401,
      body: { ok: false, error_code: 401, description: "Unauthorized" },
    });
    await notify(owner, [closed("auth-table", 4)]);
    expect(await drain(owner.publicKeyText)).toMatchObject({ failed: 1, next: null });
    await script({
      match: '"chat_id":"8051"',
      status: 403,
      body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    });
    await notify(owner, [closed("auth-table", 5)]);
    await drain(owner.publicKeyText);
    const { recent } = (await ownerClient(owner).channels()).channels[0]!;
    expect(recent.filter((a) => a.status === "failed").map((a) => [a.http_status, a.reason])).toEqual([
      [403, "blocked"],
      [401, "unauthorized"],
    ]);
  });
});

describe("when an alarm runs again", () => {
  it("never sends a message twice across a repeated alarm", async () => {
    const owner = await keyOf("owner:deliver-idem");
    await bindVia("telegram", owner, "8061");
    await notify(owner, [closed("idem-a", 2), closed("idem-b", 2), closed("idem-a", 2)]);
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    await runInDurableObject(ownerDO(owner.publicKeyText), (o: OwnerDO) => o.alarm());
    await runInDurableObject(ownerDO(owner.publicKeyText), (o: OwnerDO) => o.alarm());
    expect(await requests('"chat_id":"8061"')).toHaveLength(3);
  });

  it("sends at most 40 messages per alarm and schedules the rest", async () => {
    const owner = await keyOf("owner:deliver-batch");
    await bindVia("discord", owner, "8081", "98081");
    await notify(
      owner,
      Array.from({ length: 45 }, (_, i) => closed(`batch-${i}`, 2)),
    );
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    expect(await requests("/discord/channels/98081/messages")).toHaveLength(40);
    expect(await runAlarm(owner.publicKeyText)).toBe(true);
    expect(await requests("/discord/channels/98081/messages")).toHaveLength(46);
    expect(await runAlarm(owner.publicKeyText)).toBe(false);
  });

  it("keeps bindings, queued messages and codes across eviction of the owner and directory objects", async () => {
    const owner = await keyOf("owner:deliver-evict");
    await bindVia("telegram", owner, "8101");
    await notify(owner, [closed("evict", 2)]);
    const { code } = await ownerClient(owner).bindCode("line");
    await evictDurableObject(ownerDO(owner.publicKeyText));
    await evictDurableObject(env.CHAT_DIRECTORY.getByName("directory"));
    expect(await drain(owner.publicKeyText)).toMatchObject({ sent: 2, delivered: 2 });
    expect((await ownerClient(owner).channels()).channels).toMatchObject([
      { account: "8101", state: "ok", delivered: 2 },
    ]);
    await postLine([lineText("U8102", code)]);
    expect((await ownerClient(owner).channels()).channels.map((c) => c.account)).toEqual(["8101", "U8102"]);
  });

  it("queues an event only once when a table sends it again", async () => {
    const owner = await keyOf("owner:deliver-dup-event");
    await bindVia("telegram", owner, "8091");
    expect(await notify(owner, [closed("dup", 2)])).toEqual({ ok: true, value: { queued: 1 } });
    expect(await notify(owner, [closed("dup", 2)])).toEqual({ ok: true, value: { queued: 0 } });
  });
});
