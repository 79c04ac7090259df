/**
 * The relay's pages in real Chromium against a real relay: the landing page a browser gets at `/`,
 * the public viewer, which reads a public table, verifies it in the page and follows it live, and
 * the pages a refusal gets (a deleted table, an id that is not one). Every page reaches nothing but
 * the relay, shows the icon, and has no serious or critical axe-core violation at a phone's size or
 * a desktop's.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient, type TableClient } from "../../../src/client/index.js";
import { signDelete } from "../../../src/client/owner-requests.js";
import { FAVICON_ICO } from "../../../scripts/favicon.mjs";
import { expectAccessible } from "../../support/axe.js";
import { relayAndChromium, requestLog, screenshot } from "../../support/browser.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { readIco } from "../../support/ico.js";
import type { Cast } from "../../support/table-fixture.js";
import { startUpgradeGate, type UpgradeGate, type UpgradeMode } from "../../support/upgrade-gate.js";

const started = relayAndChromium();
let page: Page;
let requests: string[];
/** Where the test's page was opened: the relay, or a gate in front of it. */
let origin: string;
afterEach(async () => {
  expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith(origin.replace("http", "ws")))).toEqual(
    [],
  );
  await page.close();
});

/** A fresh page logging its requests, at `path` on the relay (or at `at`, a proxy in front of it). */
async function openPage(path: string, at = started.relay.url): Promise<Page> {
  origin = at;
  page = await started.browser.newPage({ viewport: { width: 1000, height: 800 } });
  requests = requestLog(page);
  await page.goto(`${at}${path}`);
  return page;
}

/** A public debate table with bot-tao's opening said (`topic` and `body` to say other words). */
async function publicDebate(words: { topic?: string; body?: string } = {}) {
  const client = await tableClient(started.relay.url, uniqueTable("public"));
  const k = await seatDebate(client, { public: true, ...(words.topic ? { topic: words.topic } : {}) });
  await client.submit(k.botTao, "bot-tao", {
    kind: "say",
    body: words.body ?? "Ship #459 first: the CSV export is what Friday's customer needs.",
  });
  return { client, k };
}

/** Deletes the debate table behind `client`, signed by its creator ops. */
async function deleteDebate(client: TableClient, k: Cast): Promise<void> {
  await new HttpClient({ url: started.relay.url }).deleteTable(
    client.table,
    await signDelete(k.ops, { table: client.table, owner: "ops", now: Date.now() }),
  );
}

/** Bidi embeddings, overrides and isolates, and zero-width characters: what the window and the CLI strip. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

describe("the landing page", { timeout: 30_000 }, () => {
  it("tells a browser what trestle is, this relay's key and version, how to seat a bot three ways, and where the docs are", async () => {
    const known = await new HttpClient({ url: started.relay.url }).wellKnown();
    const p = await openPage("/");
    expect(await p.title()).toBe("trestle relay");
    expect(await p.textContent("#relay-key")).toBe(known.relay_key);
    expect(await p.textContent("#relay-version")).toBe(known.version);
    const tarball = `${started.relay.url}/trestle-${known.version}.tgz`;
    const mcp = JSON.parse((await p.textContent("#snippet-mcp"))!).mcpServers.trestle;
    expect(mcp.env.TRESTLE_URL).toBe(started.relay.url);
    // Every command runs the client this relay serves, never a registry name the project does not own.
    expect([mcp.command, ...mcp.args]).toEqual([
      "npx",
      "--yes",
      "--prefer-offline",
      "--package",
      tarball,
      "trestle",
      "mcp",
    ]);
    const cli = (await p.textContent("#snippet-cli"))!.split("\n");
    expect(cli[0]).toBe(`npm install -g ${tarball}`);
    expect(cli).toContain("trestle join --seat bot-you --owner you");
    expect(await p.textContent("body")).not.toContain("npx trestle");
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

describe("the public viewer", { timeout: 30_000 }, () => {
  it("shows a public table verified in the page, then each new entry as it is written", async () => {
    const { client, k } = await publicDebate();
    const p = await openPage(`/view/${client.table}`);
    await p.waitForSelector(".verdict.clean");
    expect(await p.textContent("#topic")).toBe("Should #459 ship before #461?");
    expect(await p.textContent("#verdict")).toMatch(/^CLEAN: 7 entries verified$/);
    expect(await p.textContent("#coverage")).toMatch(
      /7 entries by content, \d+ signatures, 1 relay-signed heads \(newest #7\), policy replay full/,
    );
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
        const text = (await response.text()).replace(
          "the CSV export is what Friday's customer needs",
          "the CSV export is what every customer needs",
        );
        await route.fulfill({ response, body: text });
      });
      await page.goto(`${started.relay.url}/view/${client.table}`);
      await page.waitForSelector(".verdict.refuted");
      expect(await page.textContent("#verdict")).toBe(
        "REFUTED at entry #6: content does not match its leaf hash (altered)",
      );
    });

    it("says REFUTED when the link carries another relay key", async () => {
      const { client } = await publicDebate();
      const p = await openPage(`/view/${client.table}#key=${"A".repeat(43)}`);
      await p.waitForSelector(".verdict.refuted");
      expect(await p.textContent("#verdict")).toBe(
        "REFUTED at entry #1: the table records a relay key other than the pinned one",
      );
    });
  });

  it("shows what seats wrote without bidi controls or zero-width characters, as the principal window and the CLI do", async () => {
    const { client } = await publicDebate({
      topic: "Ship \u202Egnp.exe\u202C first?",
      body: "pay \u202E01$\u202C now\u200B\nthen \u2066ring\u2069 twice\uFEFF",
    });
    const p = await openPage(`/view/${client.table}`);
    await p.waitForSelector(".verdict.clean");
    expect(await p.textContent("#topic")).toBe("Ship gnp.exe first?");
    expect(await p.textContent('li[data-seq="1"] .body')).toBe("topic: Ship gnp.exe first?");
    expect(await p.textContent('li[data-seq="6"] .body')).toBe("pay 01$ now\nthen ring twice");
    expect(await p.textContent("main")).not.toMatch(INVISIBLE);
  });

  // A table made, seated, shown, verified and deleted, then a socket's close: more than most tests here.
  it(
    "stops following a table deleted while it is open, saying why, and keeps what it verified",
    { timeout: 20_000 },
    async () => {
      const { client, k } = await publicDebate();
      const p = await openPage(`/view/${client.table}`);
      await p.waitForSelector(".live.on");
      await deleteDebate(client, k);
      await p.waitForSelector(".live.refused");
      expect(await p.textContent("#live")).toMatch(
        new RegExp(`^stopped by the relay: E_TABLE_DELETED: table ${client.table} was deleted by its creator ops`),
      );
      expect(await p.locator(".entry").count()).toBe(7);
    },
  );

  describe("when the relay is slow to accept its socket or refuses it", () => {
    /** A public debate opened in the viewer through a gate in front of the relay that answers upgrades as `mode` says. */
    async function behindGate(mode: UpgradeMode): Promise<{ p: Page; gate: UpgradeGate }> {
      const { client } = await publicDebate();
      const gate = await startUpgradeGate(started.relay.port, mode);
      gates.push(gate);
      return { p: await openPage(`/view/${client.table}`, gate.url), gate };
    }
    const gates: UpgradeGate[] = [];
    afterEach(async () => {
      await Promise.all(gates.splice(0).map((g) => g.close()));
    });

    it("says connecting… until the socket is open, never not connected, then live", async () => {
      const { p, gate } = await behindGate("hold");
      await p.waitForSelector(".verdict.clean");
      await gate.held();
      expect(await p.textContent("#live")).toBe("connecting…");
      expect(await p.isVisible("#live")).toBe(true);
      gate.set("pass");
      await p.waitForSelector(".live.on");
      expect(await p.textContent("#live")).toBe("live: new entries appear as they are written");
    });

    it("says not connected and when it tries again while the relay refuses, connecting… as it tries, then live once it accepts", async () => {
      const { p, gate } = await behindGate("refuse");
      await p.waitForSelector(".live.off");
      expect(await p.textContent("#live")).toMatch(/^not connected; trying again in \d+ s$/);
      gate.set("hold");
      await gate.held();
      expect(await p.textContent("#live")).toBe("connecting…");
      gate.set("pass");
      await p.waitForSelector(".live.on");
      expect(gate.refusals()).toBeGreaterThan(0);
    });
  });

  describe("when the table was deleted", () => {
    it("is a page saying so (410), with when and by whom, and no viewer script", async () => {
      const { client, k } = await publicDebate();
      await deleteDebate(client, k);
      const p = await openPage(`/view/${client.table}`);
      expect(await p.title()).toBe("This table was deleted: trestle");
      expect(await p.textContent("#error-code")).toBe("E_TABLE_DELETED");
      expect(await p.textContent("main")).toContain(`table ${client.table} was deleted by its creator ops`);
      expect(await p.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await p.locator("script").count()).toBe(0);
      await screenshot(p, "viewer-deleted");
    });
  });

  describe("when the id is not a table id", () => {
    it("is a page saying so (404), not the JSON a program gets", async () => {
      const p = await openPage("/view/Bad%20Id");
      expect(await p.textContent("h1")).toBe("No such table");
      expect(await p.textContent("#error-message")).toBe('"Bad Id" is not a table id');
    });
  });

  describe("when the table is not public", () => {
    it("shows the relay's refusal and no entries", async () => {
      const client = await tableClient(started.relay.url, uniqueTable("private"));
      await seatDebate(client);
      const p = await openPage(`/view/${client.table}`);
      await p.waitForSelector(".verdict.error");
      expect(await p.textContent("#verdict")).toBe(
        `Cannot show this table: E_FORBIDDEN: table ${client.table} is not public`,
      );
      expect(await p.locator(".entry").count()).toBe(0);
      expect(await p.textContent("#live")).toBe("not connected");
    });
  });
});

describe("the icon", { timeout: 30_000 }, () => {
  it("is linked from the pages, loaded by the browser and kept a day", async () => {
    const p = await openPage("/");
    expect(
      await p
        .locator('link[rel="icon"]')
        .evaluateAll((links) =>
          links.map((l) => [l.getAttribute("href"), l.getAttribute("type") ?? l.getAttribute("sizes")]),
        ),
    ).toEqual([
      ["/favicon.ico", "16x16 32x32"],
      ["/favicon.svg", "image/svg+xml"],
    ]);
    const icon = await fetch(`${started.relay.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(await icon.text()).toMatch(/^<svg /);
    expect(requests).toContain(`${started.relay.url}/favicon.svg`);
  });

  it("is at /favicon.ico itself, as an icon file a browser decodes, kept a day", async () => {
    const ico = await fetch(`${started.relay.url}/favicon.ico`, { redirect: "manual" });
    expect(ico.status).toBe(200);
    expect(ico.headers.get("content-type")).toBe("image/vnd.microsoft.icon");
    expect(ico.headers.get("cache-control")).toBe("public, max-age=86400");
    const bytes = new Uint8Array(await ico.arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(readFileSync(FAVICON_ICO)));
    expect(readIco(bytes).map((image) => image.size)).toEqual([16, 32]);
    // What a browser or crawler that asks for /favicon.ico gets: Chromium shows it as an image.
    const p = await openPage("/favicon.ico");
    expect(await p.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")).toEqual([32, 32]);
  });
});

// axe-core checks the whole page twice (two sizes), which takes seconds of CPU on a busy machine.
describe("accessibility (axe-core)", { timeout: 30_000 }, () => {
  it("finds no serious or critical violation on the landing page", async () => {
    await expectAccessible(await openPage("/"), "the landing page");
  });

  it("finds none on the viewer showing a public table", async () => {
    const { client } = await publicDebate();
    const p = await openPage(`/view/${client.table}`);
    await expectAccessible(p, "the viewer", () => p.waitForSelector(".verdict.clean"));
  });

  it("finds none on the pages of a deleted table and of an id that is not one", async () => {
    const { client, k } = await publicDebate();
    await deleteDebate(client, k);
    await expectAccessible(await openPage(`/view/${client.table}`), "a deleted table's page");
    await page.close();
    await expectAccessible(await openPage("/view/Bad%20Id"), "a bad id's page");
  });
});
