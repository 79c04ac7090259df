/**
 * The principal window for tests: an owner home with the cast's owner keys as key files, a table
 * created and seated in that home (so the home holds its head, as after `trestle create`), and
 * the window itself (OwnerWindow + local server, the built page) on a free port. The bots write
 * through their own TableClients, as another machine would.
 */
import { mkdtempSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterEach, expect } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeyFile, HttpClient, openTable, ownerKeyPath, type TableClient } from "../../../src/client/node.js";
import { sha256, utf8, type TableConfig } from "../../../src/protocol/index.js";
import { assetDir, loadAssets } from "../../../src/view/assets.js";
import { OwnerWindow } from "../../../src/view/owner-window.js";
import type { Identity } from "../../../src/view/table-watch.js";
import { serveWindow, type WindowServer } from "../../../src/view/server.js";
import { buildView, viewStale } from "../../../scripts/build-view.mjs";
import { cast, castOwners, type Cast } from "../../support/table-fixture.js";
import { relayAndChromium, requestLog } from "../../support/browser.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";

/** A home directory holding the owner keys of tao, jenny and ops (the cast's, as key files). */
export async function ownerHome(prefix: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), `trestle-${prefix}-`));
  for (const owner of ["tao", "jenny", "ops"])
    await createKeyFile(ownerKeyPath(home, owner), "owner", owner, { seed: sha256(utf8(`owner:${owner}`)) });
  return home;
}

/** An open table (no floor) where bot-tao sits for tao and bot-jenny for jenny; tao approves live. An override of undefined leaves its field out (a room declares no seats). */
export function roomConfig(k: Cast, id: string, overrides: Partial<TableConfig> = {}): TableConfig {
  const config: TableConfig = {
    id,
    topic: "Book the Saturday delivery of the stroller",
    owners: castOwners(k),
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 200 }, { budget_tokens: 50_000 }] },
    ...overrides,
  };
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) as TableConfig;
}

/** The table as the owner's home made it (tao creates it, both seats join) and the bots' own client. */
export async function seatedRoom(
  relay: string,
  home: string,
  table: string,
  overrides: Partial<TableConfig> = {},
): Promise<{ k: Cast; owner: TableClient; bots: TableClient }> {
  const k = await cast();
  const owner = await openTable({ relay, table, home });
  await owner.create(k.tao, "tao", roomConfig(k, table, overrides));
  const expires = Date.now() + 60_000;
  await owner.join(k.tao, {
    seat: "bot-tao",
    owner: "tao",
    seatKey: k.botTao.publicKeyText,
    card: { summary: "tao's bot" },
    expires,
  });
  await owner.join(k.jenny, {
    seat: "bot-jenny",
    owner: "jenny",
    seatKey: k.botJenny.publicKeyText,
    card: { summary: "jenny's bot" },
    expires,
  });
  return { k, owner, bots: await tableClient(relay, table) };
}

/** A running window and what closes it. */
export interface OpenWindow {
  principal: OwnerWindow;
  server: WindowServer;
  close(): Promise<void>;
}

/** Opens tao's window (or `owner`'s) onto `relay` from `home`, reading the home again every `pollMs` (default 1 s). */
export async function openWindow(relay: string, home: string, owner = "tao", pollMs = 1000): Promise<OpenWindow> {
  const k = await cast();
  const signer = owner === "tao" ? k.tao : owner === "jenny" ? k.jenny : k.ops;
  return windowOf(relay, home, { name: owner, signer }, { pollMs });
}

/** Opens `owner`'s window onto `relay` from `home` (the page built first when stale), following `tables` too and reading the home again every `pollMs` (default 1 s). */
export async function windowOf(
  relay: string,
  home: string,
  owner: Identity,
  options: { pollMs?: number; tables?: string[] } = {},
): Promise<OpenWindow> {
  if (viewStale()) await buildView();
  const principal = await OwnerWindow.open({
    relay: new HttpClient({ url: relay }),
    home,
    owner,
    pollMs: options.pollMs ?? 1000,
    ...(options.tables ? { tables: options.tables } : {}),
  });
  const server = await serveWindow({ backend: principal, assets: loadAssets(assetDir()) });
  return {
    principal,
    server,
    close: async () => {
      await server.close();
      principal.close();
    },
  };
}

/** A seated room, tao's window onto it, and a page open at the URL the window printed, logging its requests. */
export interface RoomPage {
  table: string;
  relay: string;
  home: string;
  k: Cast;
  owner: TableClient;
  bots: TableClient;
  window: OpenWindow;
  page: Page;
  requests: string[];
}

/** How roomPage opens its room: `overrides` to the config, the page's viewport, and what to do in the home before the window opens. */
export interface RoomPageOptions {
  overrides?: Partial<TableConfig>;
  viewport?: { width: number; height: number };
  /** How often the window reads the home and the owner loop again (default 1 s). */
  pollMs?: number;
  /** The browser's time zone and locale for the page (default: the machine's). */
  zone?: Pick<BrowserContextOptions, "timezoneId" | "locale">;
  prepare?(home: string, table: string, k: Cast): void | Promise<void>;
}

/** Opens a room (`overrides` to its config) in a fresh home, runs `prepare` on the home, then opens tao's window and its page; waits until the table is live. */
export async function roomPage(
  browser: Browser,
  relay: string,
  prefix: string,
  options: RoomPageOptions = {},
): Promise<RoomPage> {
  const home = await ownerHome(prefix);
  const table = uniqueTable(prefix);
  const room = await seatedRoom(relay, home, table, options.overrides);
  await options.prepare?.(home, table, room.k);
  const window = await openWindow(relay, home, "tao", options.pollMs);
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 900 }, ...options.zone });
  const requests = requestLog(page);
  await page.goto(window.server.url);
  await page.waitForSelector(`#table-${table} .chip.status-live`);
  return { ...room, table, relay, home, window, page, requests };
}

/** The text of the first element `selector` finds, each <time> in it read as its datetime (the exact instant, ISO 8601 in UTC). */
export async function textWithInstants(page: Page, selector: string): Promise<string> {
  const read = `(() => { const copy = document.querySelector(${JSON.stringify(selector)}).cloneNode(true); for (const t of copy.querySelectorAll("time")) t.replaceWith(t.getAttribute("datetime")); return copy.textContent; })()`;
  return String(await page.evaluate(read));
}

/** Checks the page requested nothing but its own window, then closes the page and the window. */
export async function closeRoomPage(open: Pick<RoomPage, "page" | "window" | "requests"> | undefined): Promise<void> {
  if (!open) return;
  const origin = `http://127.0.0.1:${open.window.server.port}/`;
  expect(open.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  await open.page.close();
  await open.window.close();
}

/** Starts a relay for the calling test file (disposed after it), takes the vitest worker's Chromium, and closes each test's room page after the test; `open` opens one. */
export function roomPages(): { open(prefix: string, options?: RoomPageOptions): Promise<RoomPage> } {
  const started = relayAndChromium();
  let current: RoomPage | undefined;
  afterEach(async () => {
    await closeRoomPage(current);
    current = undefined;
  });
  return {
    open: async (prefix, options) => (current = await roomPage(started.browser, started.relay.url, prefix, options)),
  };
}
