/**
 * The relay's pages in real Chromium against a real relay: the landing page a browser gets at `/`,
 * and the public viewer, which reads a public table, verifies it in the page and follows it live.
 * Every page reaches nothing but the relay.
 */
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../../src/client/index.js";
import { relayAndChromium, requestLog, screenshot } from "../../support/browser.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";

const started = relayAndChromium();
let page: Page;
let requests: string[];
afterEach(async () => {
  expect(requests.filter((url) => !url.startsWith(started.relay.url) && !url.startsWith(started.relay.url.replace("http", "ws")))).toEqual([]);
  await page.close();
});

/** A fresh page logging its requests, at `path` on the relay. */
async function openPage(path: string): Promise<Page> {
  page = await started.browser.newPage({ viewport: { width: 1000, height: 800 } });
  requests = requestLog(page);
  await page.goto(`${started.relay.url}${path}`);
  return page;
}

/** A public debate table with bot-tao's opening said. */
async function publicDebate() {
  const client = await tableClient(started.relay.url, uniqueTable("public"));
  const k = await seatDebate(client, { public: true });
  await client.submit(k.botTao, "bot-tao", { kind: "say", body: "Ship #459 first: the CSV export is what Friday's customer needs." });
  return { client, k };
}

describe("the landing page", () => {
  it("tells a browser what trestle is, this relay's key and version, how to seat a bot three ways, and where the docs are", async () => {
    const known = await new HttpClient({ url: started.relay.url }).wellKnown();
    const p = await openPage("/");
    expect(await p.title()).toBe("trestle relay");
    expect(await p.textContent("#relay-key")).toBe(known.relay_key);
    expect(await p.textContent("#relay-version")).toBe(known.version);
    expect(JSON.parse((await p.textContent("#snippet-mcp"))!).mcpServers.trestle.env.TRESTLE_URL).toBe(started.relay.url);
    expect(await p.textContent("#snippet-cli")).toContain("npx trestle join --seat bot-you --owner you");
    expect(await p.textContent("#snippet-library")).toContain('from "trestle"');
    await screenshot(p, "landing");
    await p.click('a[href="/docs/SPEC.md"]');
    expect(await p.textContent("body")).toContain("# trestle protocol, version 0.1");
  });

  it("opens a public table in the viewer from its form", async () => {
    const { client } = await publicDebate();
    const p = await openPage("/");
    await p.fill('input[name="table"]', client.table);
    await p.click('button[type="submit"]');
    await p.waitForURL(`${started.relay.url}/view/${client.table}`);
    await p.waitForSelector(".verdict.clean");
  });
});

describe("the public viewer", () => {
  it("shows a public table verified in the page, then each new entry as it is written", async () => {
    const { client, k } = await publicDebate();
    const p = await openPage(`/view/${client.table}`);
    await p.waitForSelector(".verdict.clean");
    expect(await p.textContent("#topic")).toBe("Should #459 ship before #461?");
    expect(await p.textContent("#verdict")).toMatch(/^CLEAN: 7 entries verified$/);
    expect(await p.textContent("#coverage")).toMatch(/7 entries by content, \d+ signatures, 1 relay-signed heads \(newest #7\), policy replay full/);
    await p.waitForSelector(".live.on");

    await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "Ship #461 first: it fixes silent data loss." });
    await p.waitForSelector('li[data-seq="9"]');
    expect(await p.textContent('li[data-seq="8"] .body')).toBe("Ship #461 first: it fixes silent data loss.");
    await p.waitForSelector(".verdict.clean");
    expect(await p.textContent("#verdict")).toBe("CLEAN: 9 entries verified");
    await screenshot(p, "viewer");
  });

  it("checks against the relay key a link carries", async () => {
    const { client } = await publicDebate();
    const known = await new HttpClient({ url: started.relay.url }).wellKnown();
    const p = await openPage(`/view/${client.table}#key=${known.relay_key}`);
    await p.waitForSelector(".verdict.clean");
    expect(await p.textContent("#coverage")).toContain(`against the key in this link ${known.relay_key}`);
  });

  describe("when what the relay serves does not verify", () => {
    it("says REFUTED, naming the altered entry", async () => {
      const { client } = await publicDebate();
      page = await started.browser.newPage();
      requests = requestLog(page);
      await page.route(`**/tables/${client.table}/public/export`, async (route) => {
        const response = await route.fetch();
        const text = (await response.text()).replace("the CSV export is what Friday's customer needs", "the CSV export is what every customer needs");
        await route.fulfill({ response, body: text });
      });
      await page.goto(`${started.relay.url}/view/${client.table}`);
      await page.waitForSelector(".verdict.refuted");
      expect(await page.textContent("#verdict")).toBe("REFUTED at entry #6: content does not match its leaf hash (altered)");
    });

    it("says REFUTED when the link carries another relay key", async () => {
      const { client } = await publicDebate();
      const p = await openPage(`/view/${client.table}#key=${"A".repeat(43)}`);
      await p.waitForSelector(".verdict.refuted");
      expect(await p.textContent("#verdict")).toBe("REFUTED at entry #1: the table records a relay key other than the pinned one");
    });
  });

  describe("when the table is not public", () => {
    it("shows the relay's refusal and no entries", async () => {
      const client = await tableClient(started.relay.url, uniqueTable("private"));
      await seatDebate(client);
      const p = await openPage(`/view/${client.table}`);
      await p.waitForSelector(".verdict.error");
      expect(await p.textContent("#verdict")).toBe(`Cannot show this table: E_FORBIDDEN: table ${client.table} is not public`);
      expect(await p.locator(".entry").count()).toBe(0);
    });
  });
});
