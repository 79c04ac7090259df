/**
 * Real Chromium for the Node tests: Debian's `chromium` (/usr/bin/chromium, installed by .ci/run)
 * driven by playwright-core, which downloads no browser. Screenshots go to test-artifacts/
 * (git-ignored), where a person can look at what the pages show.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startRelay, type LocalRelay } from "./local-relay.js";

/** The Chromium binary the tests drive. */
export const CHROMIUM = "/usr/bin/chromium";

/** Where screenshots are written. */
export const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));

/** Launches headless Chromium with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Saves a full-page screenshot of `page` as test-artifacts/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Saves a screenshot of `page` from the top of the first element `from` finds to the bottom of the first `to` finds (default `from`) as test-artifacts/<name>.png; returns its path. */
export async function elementShot(page: Page, name: string, from: string, to = from): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  // Measured in the page's own coordinates (the viewport's, plus how far it is scrolled), as a full-page clip is.
  const measure = `(() => { const a = document.querySelector(${JSON.stringify(from)}).getBoundingClientRect(); const b = document.querySelector(${JSON.stringify(to)}).getBoundingClientRect(); return [a.left + scrollX, a.top + scrollY, Math.max(a.width, b.width), b.bottom - a.top]; })()`;
  const [x, y, width, height] = (await page.evaluate(measure)) as number[];
  await page.screenshot({ path, fullPage: true, clip: { x: x!, y: y!, width: width!, height: height! } });
  return path;
}

/** Every URL `page` requests from now on (to check a page reaches nothing but its relay). */
export function requestLog(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

let shared: Promise<Browser> | undefined;

/**
 * This vitest worker's Chromium (the node project runs files with `isolate: false`, one module
 * state per worker): launched by the first file that asks, reused by the next ones, and killed
 * with the worker process (playwright kills the browsers it launched on exit). Each test opens its
 * own page in a fresh browser context (`browser.newPage`), so no cookie, storage or cache crosses
 * files; a file never closes it.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** A local relay for the calling test file and the vitest worker's Chromium: started before its tests, the relay disposed after them; read them through the returned object. */
export function relayAndChromium(): { readonly relay: LocalRelay; readonly browser: Browser } {
  let relay: LocalRelay | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [relay, browser] = await Promise.all([startRelay(), sharedChromium()]);
  }, 60_000);
  afterAll(async () => {
    await relay?.dispose();
  });
  return {
    get relay() {
      if (!relay) throw new Error("the relay is not started yet");
      return relay;
    },
    get browser() {
      if (!browser) throw new Error("Chromium is not started yet");
      return browser;
    },
  };
}
