/**
 * The principal window's loud banner (docs/VIEW.md): the evidence this home keeps against a relay
 * that forked or truncated a table (docs/SPEC.md §8.3), found by the window's own owner session or
 * kept from before. A relay rolled back: its storage in a directory, stopped, restored from an older
 * copy, restarted and written past its old length (as test/unit/cli/rollback.test.ts). And live:
 * the relay behind the window's URL replaced, while the page is open, by one with the same key and
 * another, shorter history of the table (and, for contrast, a mere dropped connection, after which
 * the window resumes without a banner).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FileHeadStore, openTable } from "../../../src/client/node.js";
import { toBase64url } from "../../../src/protocol/index.js";
import { sharedChromium, screenshot } from "../../support/browser.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { startProxy, type TcpProxy } from "../../support/tcp-proxy.js";
import type { Cast } from "../../support/table-fixture.js";
import { openWindow, ownerHome, roomConfig, seatedRoom, type OpenWindow } from "./window-fixture.js";

const SEED = toBase64url(new Uint8Array(32).fill(21));
const work = mkdtempSync(join(tmpdir(), "trestle-view-fork-"));
let browser: Browser;
/** The pages a test opened, closed after it (the browser is the vitest worker's, shared with other files). */
const pages: Page[] = [];

beforeAll(async () => {
  browser = await sharedChromium();
}, 30_000);
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
});

/** A new page in the shared browser, closed after the test. */
async function newPage(options?: Parameters<Browser["newPage"]>[0]): Promise<Page> {
  const page = await browser.newPage(options);
  pages.push(page);
  return page;
}

/** Opens the window's page and waits for the banner; returns the page. */
async function banner(window: OpenWindow): Promise<Page> {
  const page = await newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(window.server.url);
  await page.waitForSelector("#banner:not([hidden])");
  return page;
}

/** bot-tao and bot-jenny say `count` things in turn through `client`. */
async function turns(
  client: Awaited<ReturnType<typeof tableClient>>,
  k: Cast,
  count: number,
  label: string,
): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const [key, seat] = i % 2 === 0 ? [k.botTao, "bot-tao"] : [k.botJenny, "bot-jenny"];
    await client.submit(key, seat, { kind: "say", body: `${label} ${i}` });
  }
}

describe("when the relay was rolled back and then forked past the head this home held", { timeout: 30_000 }, () => {
  const storage = join(work, "storage");
  let relay: LocalRelay | undefined;
  let home: string;
  let table: string;
  let held: number;

  const restart = async () => {
    await relay?.dispose();
    relay = await startRelay({ signingKey: SEED, persist: storage });
    return relay.url;
  };

  beforeAll(async () => {
    home = await ownerHome("rollback");
    table = uniqueTable("rollback");
    const { k, bots } = await seatedRoom(await restart(), home, table);
    await turns(bots, k, 1, "the old copy ends here");
    await relay!.dispose();
    relay = undefined;
    cpSync(storage, join(work, "storage-old"), { recursive: true });
    // The honest history goes on, and the home holds its head.
    let url = await restart();
    await turns(await tableClient(url, table), k, 3, "honest turn");
    const owner = await openTable({ relay: url, table, home });
    held = (await owner.history({ signer: k.tao, as: { owner: "tao" } })).head.seq;
    // Rolled back to the older copy, then written past the old length by a client that never saw more.
    await relay!.dispose();
    relay = undefined;
    rmSync(storage, { recursive: true, force: true });
    cpSync(join(work, "storage-old"), storage, { recursive: true });
    url = await restart();
    await turns(await tableClient(url, table), k, held, "another history");
  }, 120_000);
  afterAll(() => relay?.dispose());

  it("shows the loud banner and the table as caught, from the evidence its own session finds, and keeps the honest head", async () => {
    const window = await openWindow(relay!.url, home);
    try {
      const page = await banner(window);
      expect(await page.textContent("#banner h2")).toBe("THE RELAY WAS CAUGHT");
      expect(await page.textContent("#banner li")).toMatch(new RegExp(`^${table}: fork at #\\d+, recorded .*: fork: `));
      expect(await page.textContent("#banner .hint")).toBe(
        `The evidence is kept in this home: trestle evidence --table ${table}`,
      );
      await page.waitForSelector(`#table-${table} .chip.status-caught`);
      expect(await page.textContent(`#table-${table} .chip.status-caught`)).toBe("RELAY CAUGHT");
      expect(await page.textContent(`#table-${table} .chip.problem`)).toMatch(/^E_FORK: fork: /);
      expect(await page.textContent(`#table-${table} .verdict.refuted`)).toContain("chain REFUTED");
      await screenshot(page, "principal-window-fork");
      const store = new FileHeadStore(home);
      expect(store.load(window.principal.relayKey, table)?.seq).toBe(held);
      expect(store.evidence(window.principal.relayKey, table)[0]).toMatchObject({ kind: "fork", table });
    } finally {
      await window.close();
    }
  });

  it("shows it at once in a later window, from the evidence kept, without trusting the relay again", async () => {
    const window = await openWindow(relay!.url, home);
    try {
      const page = await banner(window);
      await page.waitForSelector(`#table-${table} .chip.status-caught`);
      expect(await page.textContent(`#table-${table} .chip.problem`)).toMatch(/^E_FORK: /);
      expect(await page.textContent(`#table-${table} .facts`)).toContain(`head #${held} `);
      expect(await page.locator(`#table-${table} .transcript li`).count()).toBe(0);
    } finally {
      await window.close();
    }
  });
});

describe(
  "when the connection behind the window's URL drops, or the relay there is replaced by one with another history",
  { timeout: 30_000 },
  () => {
    let honest: LocalRelay;
    let other: LocalRelay;
    let proxy: TcpProxy;

    beforeAll(async () => {
      [honest, other] = await Promise.all([startRelay({ signingKey: SEED }), startRelay({ signingKey: SEED })]);
      proxy = await startProxy(honest.port);
    }, 60_000);
    afterAll(() => Promise.all([proxy?.close(), honest?.dispose(), other?.dispose()]));

    it("keeps following the honest relay across a dropped connection, resuming where it stopped", async () => {
      proxy.retarget(honest.port);
      const home = await ownerHome("drop");
      const table = uniqueTable("drop");
      const { k, bots } = await seatedRoom(proxy.url, home, table);
      const window = await openWindow(proxy.url, home);
      try {
        const page = await newPage();
        await page.goto(window.server.url);
        await page.waitForSelector(`#table-${table} .chip.status-live`);
        proxy.cut();
        await turns(await tableClient(honest.url, table), k, 2, "while the window was away");
        await page.waitForSelector(`#table-${table} .transcript li[data-seq="5"]`);
        await bots.submit(k.botTao, "bot-tao", { kind: "say", body: "and after" });
        await page.waitForSelector(`#table-${table} .transcript li[data-seq="6"]`);
        expect(await page.locator(`#table-${table} .transcript li`).count()).toBe(6);
        await page.waitForSelector(`#table-${table} .verdict.clean`);
        expect(await page.isHidden("#banner")).toBe(true);
      } finally {
        await window.close();
      }
    });

    it("raises the banner live, from the fork the session catches when it reconnects", async () => {
      proxy.retarget(honest.port);
      const home = await ownerHome("live-fork");
      const table = uniqueTable("live-fork");
      const { k, bots } = await seatedRoom(proxy.url, home, table);
      await turns(bots, k, 4, "honest turn");
      // The same table on the other relay (same key), with only its first entries.
      const elsewhere = await tableClient(other.url, table);
      await elsewhere.create(k.tao, "tao", roomConfig(k, table));
      const window = await openWindow(proxy.url, home);
      try {
        const page = await newPage();
        await page.goto(window.server.url);
        await page.waitForSelector(`#table-${table} .transcript li[data-seq="7"]`);
        expect(await page.isHidden("#banner")).toBe(true);
        proxy.retarget(other.port);
        proxy.cut();
        await page.waitForSelector("#banner:not([hidden])");
        expect(await page.textContent("#banner li")).toMatch(
          new RegExp(`^${table}: fork at #1, recorded .*: fork: the relay's signed head at 1 disagrees with the chain`),
        );
        await page.waitForSelector(`#table-${table} .chip.status-caught`);
        await page.waitForSelector(`#table-${table} .verdict.refuted`);
      } finally {
        await window.close();
      }
    });
  },
);
