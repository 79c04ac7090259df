/**
 * The principal window in real Chromium against a real relay (docs/VIEW.md): tao opens the page
 * `trestle view` serves, sees the table's entries arrive live, approves a task by click (the
 * approval in the ledger is signed with tao's key), pauses the table (bot-tao's next write is
 * refused) and lifts only tao's own pause while jenny's holds, and reads what never left the machine (the seats' private journals).
 * The page requests nothing but its own local server.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { OwnerClient, type TableClient } from "../../../src/client/index.js";
import { isEntry, TrestleError, type Entry } from "../../../src/protocol/index.js";
import { FAVICON_ICO } from "../../../scripts/favicon.mjs";
import { ARTIFACTS, screenshot } from "../../support/browser.js";
import type { Cast } from "../../support/table-fixture.js";
import { roomPages, type RoomPage, type RoomPageOptions } from "./window-fixture.js";

const pages = roomPages();
let open: RoomPage | undefined;
let page: Page;

/** A seated room in a fresh home, tao's window onto it, and the page open at the URL it printed. */
async function opened(prefix: string, options: RoomPageOptions = {}): Promise<RoomPage> {
  open = await pages.open(prefix, options);
  page = open.page;
  return open;
}

/** Writes (or with `append`, adds) lines of `seat`'s private journal at `table` in `home`, as the owner-side guards keep it. */
function journal(home: string, table: string, seat: string, lines: readonly (object | string)[], append = false): void {
  const dir = join(home, "private", table);
  mkdirSync(dir, { recursive: true });
  const text = lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n";
  (append ? appendFileSync : writeFileSync)(join(dir, `${seat}.jsonl`), text);
}

/** The entries of the room's table as its owner tao reads them, chain verified. */
async function ledger(room: { owner: TableClient; k: Cast }): Promise<Entry[]> {
  const { items } = await room.owner.history({ signer: room.k.tao, as: { owner: "tao" } });
  return items.filter(isEntry);
}

describe("the principal window", { timeout: 30_000 }, () => {
  it("shows the owner's table with its seats, then each entry as the bots write it, with its signature verified", async () => {
    const { table, k, bots } = await opened("live");
    const card = `#table-${table}`;
    expect(await page.textContent(`${card} .topic`)).toBe("Book the Saturday delivery of the stroller");
    expect(await page.textContent("#who")).toContain("owner tao");
    await bots.submit(k.botJenny, "bot-jenny", { kind: "say", body: "I can bring it on Saturday morning." });
    const entry = page.locator(`${card} .transcript li[data-seq="4"]`);
    await entry.waitFor();
    expect(await entry.locator(".who").textContent()).toBe("bot-jenny");
    expect(await entry.locator(".body").textContent()).toBe("I can bring it on Saturday morning.");
    await page.waitForSelector(`${card} .transcript li[data-seq="4"] .badge.ok`);
    await page.waitForSelector(`${card} .verdict.clean`);
    expect(await page.textContent(`${card} .verdict`)).toMatch(/chain CLEAN.*4\/4 by content/);
    await bots.submit(k.botTao, "bot-tao", { kind: "say", body: "Saturday works.\nRing twice." });
    await page.waitForSelector(`${card} .transcript li[data-seq="5"]`);
    expect(await page.textContent(`${card} .transcript li[data-seq="5"] .body`)).toBe("Saturday works.\nRing twice.");
    expect(await page.textContent(`${card} .transcript li[data-seq="5"]`)).toContain("yours");
    await screenshot(page, "principal-window-desktop");
    // The token left the address bar (and so history and bookmarks); this tab keeps it for a reload.
    expect(page.url()).toBe(`http://127.0.0.1:${open!.window.server.port}/`);
    await page.reload();
    await page.waitForSelector(`${card} .transcript li[data-seq="5"]`);
  });

  it("approves a task by click: the owner key signs it here and the approval is in the ledger", async () => {
    const room = await opened("approve");
    const { table, k, bots } = room;
    await bots.submit(k.botJenny, "bot-jenny", {
      kind: "proposal",
      body: "Deliver on Saturday at 10.",
      effects: [{ owner: "tao", resource: "calendar", action: "book", args: { day: "sat", at: "10:00" } }],
    });
    const waiting = page.locator('#waiting-list .waiting-task[data-task="4.tao"]');
    await waiting.waitFor();
    expect(await waiting.locator(".effect-words").textContent()).toBe("book on calendarday: satat: 10:00");
    expect(await waiting.locator(".where").textContent()).toContain("proposed by bot-jenny in #4");
    await screenshot(page, "principal-window-approval");
    // The README's picture (docs/img/principal-window.png is a copy): the first screenful only.
    await page.setViewportSize({ width: 1100, height: 720 });
    await page.screenshot({ path: join(ARTIFACTS, "principal-window-readme.png") });
    await waiting.locator("button.approve").click();
    await page.waitForSelector(".notice.ok");
    expect(await page.textContent(".notice")).toMatch(
      /^task 4\.tao approved with tao's key: now approved \(entry #\d+\)$/,
    );
    await page.waitForSelector(`#table-${table} .task[data-task="4.tao"].state-approved`);
    expect(await page.locator('#waiting-list .waiting-task[data-task="4.tao"]').count()).toBe(0);
    const approval = (await ledger(room)).find((e) => e.kind === "approval");
    expect(approval).toMatchObject({
      kind: "approval",
      owner: "tao",
      task: "4.tao",
      verdict: "approve",
      author: { key: k.tao.publicKeyText },
    });
  });

  it("pauses the table with the owner's signature, so the seat's next write is refused, and resumes it", async () => {
    const room = await opened("pause");
    const { table, k, bots } = room;
    const card = `#table-${table}`;
    const refusedCode = async () =>
      (
        (await bots
          .submit(k.botTao, "bot-tao", { kind: "say", body: "one more thing" })
          .catch((e: unknown) => e)) as TrestleError
      ).code;
    await page.click(`${card} button.pause`);
    await page.waitForSelector(`${card} .chip.paused`);
    expect(await page.textContent(`${card} .chip.paused`)).toBe("PAUSED by tao (owner key, yours)");
    expect(await refusedCode()).toBe("E_PAUSED");
    // jenny puts her own pause on: the chip names both; tao's button lifts only tao's.
    await new OwnerClient(room.relay, k.jenny).control(table, "jenny", "pause");
    await page.waitForSelector(`${card} .chip.paused:has-text('jenny')`);
    expect(await page.textContent(`${card} .chip.paused`)).toBe("PAUSED by tao (owner key, yours), jenny (owner key)");
    expect(await page.textContent(`${card} button.resume`)).toBe("Lift your pause (sign)");
    await page.click(`${card} button.resume`);
    await page.waitForSelector(`${card} button.pause`);
    expect(await page.textContent(`${card} .chip.paused`)).toBe("PAUSED by jenny (owner key)");
    expect(await refusedCode()).toBe("E_PAUSED");
    await new OwnerClient(room.relay, k.jenny).control(table, "jenny", "resume");
    await page.waitForSelector(`${card} .chip.paused`, { state: "detached" });
    const { seq } = await bots.submit(k.botTao, "bot-tao", { kind: "say", body: "one more thing" });
    await page.waitForSelector(`${card} .transcript li[data-seq="${seq}"]`);
    const paused = (await ledger(room)).find((e) => e.kind === "system" && e.subkind === "table_paused");
    expect(paused).toMatchObject({ data: { owner: "tao", via: "owner" }, author: { key: k.tao.publicKeyText } });
  });

  it("shows what never left the machine: the seats' private rationale, notes, guard refusals and held messages, as text", async () => {
    const at = Date.now();
    const hash = "ab".repeat(32);
    let base = {};
    const { home, table, k, bots } = await opened("local", {
      prepare: (home, table, k) => {
        base = { v: 1, table, seat: "bot-tao" };
        journal(home, table, "bot-tao", [
          {
            ...base,
            at,
            type: "rationale",
            text: "Offering 3,400 first: <img src=https://attacker.example/x.png> they said 3,600.",
            re: { seq: 4 },
          },
          { ...base, at: at + 1, type: "owner_note", text: "They want Saturday; is that fine?", id: "n1", queued: 1 },
          {
            ...base,
            at: at + 2,
            type: "refusal",
            guard: "mandate",
            code: "E_MANDATE",
            reason: "over_cap",
            message: "3,900 EUR is over the cap of 3,600 EUR",
            kind: "offer",
            message_sha256: hash,
          },
          {
            ...base,
            at: at + 3,
            type: "held",
            message_sha256: hash,
            why: "require_confirm",
            submission: { kind: "say", body: "Deal at 3,500." },
          },
          {
            ...base,
            at: at + 4,
            type: "gate_answer",
            message_sha256: hash,
            verdict: "approve",
            nonce: "n".repeat(22),
            owner_key: k.tao.publicKeyText,
            sig: `${"s".repeat(85)}A`,
          },
          "not json at all",
          {
            ...base,
            seat: "bot-jenny",
            at: at + 5,
            type: "rationale",
            text: "a record that names another seat than its file",
          },
        ]);
        journal(home, table, "bot-jenny", [
          { ...base, seat: "bot-jenny", at: at + 6, type: "rationale", text: "jenny's seat: not tao's to read" },
        ]);
      },
    });
    await page.waitForSelector("#local .item");
    const titles = await page.locator("#local .item .entry-head").allTextContents();
    expect(titles).toEqual([
      "held for your approval (require_confirm)",
      "refused by the mandate guard: E_MANDATE (over_cap)",
      "note to you (sent to your chat apps)",
      "private rationale about #4",
    ]);
    expect(await page.locator("#local .local-rationale .body").textContent()).toBe(
      "Offering 3,400 first: <img src=https://attacker.example/x.png> they said 3,600.",
    );
    expect(await page.locator("#local .local-refusal .body").textContent()).toBe(
      "offer: 3,900 EUR is over the cap of 3,600 EUR",
    );
    expect(await page.textContent("#local .unreadable")).toMatch(/^2 journal line\(s\) could not be read/);
    journal(
      home,
      table,
      "bot-tao",
      [{ ...base, at: at + 10, type: "rationale", text: "Jenny agreed; closing." }],
      true,
    );
    await page.waitForSelector("#local .item:first-child:has-text('Jenny agreed; closing.')");
    await bots.submit(k.botTao, "bot-tao", { kind: "say", body: "Deal." });
    await page.waitForSelector(`#table-${table} .transcript li[data-seq="4"]`);
    await screenshot(page, "principal-window-local");
  });

  it("fits a phone-sized screen: nothing is wider than the viewport", async () => {
    const { table, k, bots } = await opened("phone", { viewport: { width: 390, height: 844 } });
    await bots.submit(k.botJenny, "bot-jenny", {
      kind: "proposal",
      body: "Deliver on Saturday at 10, to the back door of the building on the corner.",
      effects: [{ owner: "tao", resource: "calendar", action: "book", args: { day: "sat", at: "10:00" } }],
    });
    await page.waitForSelector('#waiting-list .waiting-task[data-task="4.tao"]');
    await page.waitForSelector(`#table-${table} .transcript li[data-seq="5"]`);
    const widest = await page.evaluate("document.documentElement.scrollWidth");
    expect(widest).toBeLessThanOrEqual(390);
    await screenshot(page, "principal-window-phone");
  });

  it("has the relay's icon: linked from the page, loaded by it, and at /favicon.ico as an icon file, kept a day", async () => {
    const { window } = await opened("icon");
    const origin = `http://127.0.0.1:${window.server.port}`;
    expect(
      await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute("href"))),
    ).toEqual(["/favicon.ico", "/favicon.svg"]);
    expect(open!.requests).toContain(`${origin}/favicon.svg`);
    // Asked for as a browser or a crawler asks, without the page: no token, only this window's Host.
    const ico = await fetch(`${origin}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get("content-type")).toBe("image/vnd.microsoft.icon");
    expect(ico.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(new Uint8Array(await ico.arrayBuffer())).toEqual(new Uint8Array(readFileSync(FAVICON_ICO)));
    const svg = await fetch(`${origin}/favicon.svg`);
    expect([svg.status, svg.headers.get("content-type"), svg.headers.get("cache-control")]).toEqual([
      200,
      "image/svg+xml",
      "public, max-age=86400",
    ]);
    // The page itself is never kept.
    expect((await fetch(`${origin}/`)).headers.get("cache-control")).toBe("no-store");
  });
});
