/**
 * The rest of what the principal window shows, in real Chromium against a real relay whose chat
 * apps are the loopback fake (test/support/fake-chat-api.ts): a task rejected by click (signed with
 * the owner key), a body the relay cut (its badge, and INCONCLUSIVE until its original is checked),
 * a sub-table followed as soon as it opens, a table of the home that is not the owner's, and the
 * owner's chat channels with their health.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OwnerClient } from "../../../src/client/index.js";
import { openTable } from "../../../src/client/node.js";
import { isEntry, type TableConfig } from "../../../src/protocol/index.js";
import { sharedChromium } from "../../support/browser.js";
import { uniqueTable } from "../../support/client-table.js";
import { startFakeChatApi, type FakeChatApi } from "../../support/fake-chat-api.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { closeRoomPage, roomConfig, roomPage, type RoomPage, type RoomPageOptions } from "./window-fixture.js";

const SECRETS = {
  TELEGRAM_BOT_TOKEN: "123:view-telegram-token",
  TELEGRAM_WEBHOOK_SECRET: "view-telegram-secret",
  TELEGRAM_BOT_USERNAME: "trestle_view_bot",
  OUTBOX_DELAY_MS: "0",
};

let fake: FakeChatApi;
let relay: LocalRelay;
let browser: Browser;
let open: RoomPage | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeChatApi();
  [relay, browser] = await Promise.all([
    startRelay({ vars: { ...SECRETS, TELEGRAM_API_BASE: `${fake.url}/telegram` } }),
    sharedChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await relay?.dispose();
  await new Promise<void>((resolve) => fake?.server.close(() => resolve()));
});
afterEach(async () => {
  await closeRoomPage(open);
  open = undefined;
});

/** A room (with `overrides`) in a fresh home, and tao's window open on it. */
async function opened(
  prefix: string,
  overrides: Partial<TableConfig> = {},
  prepare?: RoomPageOptions["prepare"],
): Promise<RoomPage> {
  open = await roomPage(browser, relay.url, prefix, { overrides, ...(prepare ? { prepare } : {}) });
  page = open.page;
  return open;
}

describe("the principal window", { timeout: 30_000 }, () => {
  it("rejects a task by click, signed with the owner key", async () => {
    const { table, k, bots, owner } = await opened("reject");
    await bots.submit(k.botJenny, "bot-jenny", {
      kind: "proposal",
      body: "Pay the deposit now.",
      effects: [{ owner: "tao", resource: "bank", action: "transfer", args: { amount: 50000 } }],
    });
    await page.click('#waiting-list .waiting-task[data-task="4.tao"] button.reject');
    await page.waitForSelector(".notice.ok");
    expect(await page.textContent(".notice")).toMatch(/^task 4\.tao rejected with tao's key: now rejected/);
    await page.waitForSelector(`#table-${table} .task[data-task="4.tao"].state-rejected`);
    const { items } = await owner.history({ signer: k.tao, as: { owner: "tao" } });
    expect(items.filter(isEntry).find((e) => e.kind === "approval")).toMatchObject({
      verdict: "reject",
      author: { key: k.tao.publicKeyText },
    });
  });

  it("marks a body the relay cut, and calls the chain INCONCLUSIVE while the original is unchecked", async () => {
    const { table, k, bots } = await opened("cut", { floor: { max_chars: 40 } });
    const long = "A long message that the relay must cut at forty characters, by the table's floor rule.";
    await bots.submit(k.botJenny, "bot-jenny", { kind: "say", body: long });
    const entry = page.locator(`#table-${table} .transcript li[data-seq="4"]`);
    await entry.waitFor();
    expect(await entry.locator(".badge.warn").textContent()).toBe(`cut by the relay (${long.length} chars written)`);
    expect(await entry.locator(".body").textContent()).toBe(long.slice(0, 40));
    await page.waitForSelector(`#table-${table} .verdict.inconclusive`);
    expect(await page.textContent(`#table-${table} .verdict`)).toContain(
      "1 truncated bodies were not checked against their originals",
    );
  });

  it("follows a sub-table that lists the owner as soon as it opens, and lists it under its parent", async () => {
    const { table, k, bots } = await opened("parent");
    const child = `${table.slice(0, 56)}-sub`;
    const config = { ...roomConfig(k, child), topic: "Which Saturday?", parent: table };
    await bots.openSubtable(k.botTao, "bot-tao", config);
    await page.waitForSelector(`#table-${child} .chip.status-live`);
    expect(await page.textContent(`#table-${child} .facts`)).toContain(`sub-table of ${table}`);
    expect(await page.textContent(`#table-${child} .topic`)).toBe("Which Saturday?");
    expect(await page.textContent(`#table-${table} .subtables`)).toBe(`${child}: Which Saturday? (open)`);
  });

  it("lists apart a table of this home where the relay refuses the owner's session, with the relay's code", async () => {
    const theirs = uniqueTable("theirs");
    const { table } = await opened("apart", {}, async (home, _table, k) => {
      const jennys = await openTable({ relay: relay.url, table: theirs, home });
      await jennys.create(k.jenny, "jenny", {
        ...roomConfig(k, theirs),
        owners: { jenny: { public_key: k.jenny.publicKeyText } },
        seats: { "bot-jenny": { owner: "jenny" } },
      });
    });
    await page.waitForSelector("#elsewhere-panel:not([hidden])");
    expect(await page.textContent("#elsewhere")).toMatch(new RegExp(`^${theirs}: E_AUTH `));
    expect(await page.isHidden(`#table-${theirs}`)).toBe(true);
    expect(await page.isVisible(`#table-${table}`)).toBe(true);
  });

  it("shows the owner's chat channels: one that delivered as ok, one that never did as UNPROVEN", async () => {
    await fetch(`${fake.url}/__control/script`, {
      method: "POST",
      body: JSON.stringify({
        match: '"chat_id":"8802"',
        status: 401,
        body: { ok: false, description: "Unauthorized" },
      }),
    });
    const { k } = await opened("channels");
    const owners = new OwnerClient(relay.url, k.tao);
    for (const user of [8801, 8802]) {
      const { code } = await owners.bindCode("telegram");
      const body = JSON.stringify({
        update_id: user,
        message: {
          message_id: 1,
          date: 1,
          from: { id: user, is_bot: false, first_name: "T" },
          chat: { id: user, type: "private" },
          text: `/start ${code}`,
        },
      });
      await fetch(`${relay.url}/hooks/telegram`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-telegram-bot-api-secret-token": SECRETS.TELEGRAM_WEBHOOK_SECRET,
        },
      });
    }
    await page.waitForSelector("#channels .channel.ok", { timeout: 10_000 });
    // The channel shows as UNPROVEN from the moment it is queued; wait for the failed attempt itself.
    await page.locator("#channels .channel.unproven", { hasText: "failed HTTP 401" }).waitFor({ timeout: 10_000 });
    expect(await page.textContent("#channels .channel.ok")).toMatch(/^ok telegram 8801 \(T, en\) {2}ok {2}1 delivered/);
    expect(await page.textContent("#channels .channel.unproven")).toMatch(
      /^UNPROVEN telegram 8802 .* never delivered; last attempt failed HTTP 401/,
    );
    // Each time in a channel's line reads on the viewer's clock (a <time> with the exact instant), never as the raw UTC instant.
    const times = page.locator("#channels .channel.ok time");
    expect(await times.count()).toBeGreaterThan(0);
    for (const datetime of await times.evaluateAll((all) =>
      all.map((t) => (t as unknown as { dateTime: string }).dateTime),
    ))
      expect(datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await page.textContent("#channels")).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });
});
