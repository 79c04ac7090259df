/**
 * A market in the principal window (docs/VIEW.md "Your markets"), in real Chromium against a real
 * relay (the vitest worker's shared relay and browser): ana's listings live first and the ended
 * ones with how they ended; her matches with the other side, the words they share and where each
 * room stands; a room nobody opened opened by click and one the other side opened entered by click,
 * as `trestle market room` does (the room then followed, with a link to its card); a forged request
 * naming a match that is not ana's refused on the page with nothing created; and a room's deal
 * signed by click, then recorded by the market, with the allowance moving from reserved to spent
 * when reconciled by click. Each page passes axe-core at a phone's size and a desktop's, with no
 * horizontal scroll on the phone.
 */
import type { Browser, Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { roomPresence, HttpClient } from "../../../src/client/node.js";
import { matchRoomId, type Entry, type SystemEntryOf } from "../../../src/protocol/index.js";
import { expectAccessible } from "../../support/axe.js";
import { elementShot, requestLog, screenshot, sharedChromium } from "../../support/browser.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import type { ListingInput, Member } from "../../support/market-fixture.js";
import { MarketHttp } from "../../support/market-http.js";
import { guardOf, mandateAt, marketRooms, memberHome, sellerOffers, storeOf } from "../../support/market-rooms.js";
import { RelayHttp } from "../../support/relay-http.js";
import { expect201 } from "../../support/room-http.js";
import { closeRoomPage, windowOf, type OpenWindow } from "./window-fixture.js";

let relay: LocalRelay;
let browser: Browser;
beforeAll(async () => {
  [relay, browser] = await Promise.all([sharedRelay(), sharedChromium()]);
}, 120_000);

let open: { page: Page; window: OpenWindow; requests: string[] } | undefined;
afterEach(async () => {
  await closeRoomPage(open);
  open = undefined;
});

/** Ana's window onto market `m` from `home` (following `tables` too), and its page at a desktop's size, once the market's part is shown. */
async function anaPage(m: MarketHttp, home: string, tables: string[] = []): Promise<Page> {
  const window = await windowOf(
    relay.url,
    home,
    { name: "ana", signer: m.k.owners.ana },
    { tables: [m.id, ...tables] },
  );
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  open = { page, window, requests: requestLog(page) };
  await page.goto(window.server.url);
  await page.waitForSelector(market(m));
  return page;
}

const market = (m: MarketHttp) => `#markets article.market[data-table="${m.id}"]`;
const matchRow = (m: MarketHttp, seq: number) => `${market(m)} li.match[data-match="${seq}"]`;

/** `member`'s seat lists `input`; returns the listing's entry (seq and leaf). */
async function listed(m: MarketHttp, member: Member, input: ListingInput): Promise<Entry> {
  const { body } = expect201(await m.list(member, input));
  return (await m.read(member, `/tables/${m.id}/entries?from=${body.seq}&to=${body.seq}`)).body.items[0];
}

/** The match entry between `offerer`'s offer and `wanter`'s want. */
async function matchOf(m: MarketHttp, offerer: Member, wanter: Member): Promise<SystemEntryOf<"match">> {
  const items: Entry[] = (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
  return items.find(
    (e): e is SystemEntryOf<"match"> =>
      e.kind === "system" &&
      e.subkind === "match" &&
      e.data.offered_by.owner === offerer &&
      e.data.wanted_by.owner === wanter,
  )!;
}

/** A fresh swap market where ana wants a stroller (ben's and chen's offers match it), withdrew a high chair and wrote a new version of her crib; chen opened the room of his match; ben and chen matched each other over a bike. */
async function swapMarket() {
  const m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), relay.url), uniqueTable("m-view"), {
    members: ["ana", "ben", "chen"],
  });
  const chair = await listed(m, "ana", { side: "offer", title: "High chair", category: "baby-gear", quantity: 1 });
  expect201(await m.write("ana-bot", { kind: "unlist", listing: chair.leaf }));
  const crib = await listed(m, "ana", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
  await listed(m, "ana", {
    side: "offer",
    title: "Crib with mattress",
    category: "baby-gear",
    quantity: 1,
    supersedes: crib.leaf,
    price: { currency: "USD", min: 4000, max: 6000 },
  });
  await listed(m, "ana", {
    side: "want",
    title: "Stroller wanted",
    category: "baby-gear",
    quantity: 2,
    text: "Folds flat, fits a small car boot",
  });
  await listed(m, "ben", { side: "offer", title: "Stroller, barely used", category: "baby-gear", quantity: 1 });
  await listed(m, "chen", { side: "offer", title: "City stroller", category: "baby-gear", quantity: 1 });
  await listed(m, "ben", { side: "offer", title: "Balance bike", category: "baby-gear", quantity: 1 });
  await listed(m, "chen", { side: "want", title: "Balance bike", category: "baby-gear", quantity: 1 });
  const [ben, chen, bike] = [
    await matchOf(m, "ben", "ana"),
    await matchOf(m, "chen", "ana"),
    await matchOf(m, "ben", "chen"),
  ];
  const { room } = await m.openRoom("chen", chen.seq);
  expect201(await m.joinAs("chen", room, "chen-bot", { as: "owner" }));
  return { m, home: await memberHome(m, "ana"), ben, chen, bike, chenRoom: room };
}

describe("a market in the principal window", { timeout: 90_000 }, () => {
  it("shows ana's listings live first and the ended ones with how they ended, and her matches with their rooms; opens one room and enters the other by click", async () => {
    const s = await swapMarket();
    const page = await anaPage(s.m, s.home);
    const listings = await page.$$eval(`${market(s.m)} li.listing`, (items) =>
      items.map((li) => [
        li.querySelector(".listing-title")?.textContent,
        li.getAttribute("data-standing"),
        li.querySelector(".listing-when")?.textContent,
      ]),
    );
    expect(listings.map(([title, standing]) => [title, standing])).toEqual([
      ["Stroller wanted", "live"],
      ["Crib with mattress", "live"],
      ["Crib", "superseded"],
      ["High chair", "withdrawn"],
    ]);
    expect(listings[2]![2]).toMatch(/^superseded by a new version, #\d+$/);
    expect(listings[3]![2]).toMatch(/^withdrawn at #\d+$/);
    expect(await page.textContent(`${market(s.m)} li.listing[data-standing="live"] .listing-facts`)).toMatch(
      /^#\d+ · baby-gear · 2 of 2 left · ask$/,
    );
    expect(
      await page.getAttribute(`${market(s.m)} li.listing[data-standing="live"] .listing-when time`, "datetime"),
    ).toMatch(/Z$/);
    // Only ana's matches: ben and chen's bike is not hers.
    expect(
      await page.$$eval(`${market(s.m)} li.match`, (items) => items.map((li) => li.getAttribute("data-match"))),
    ).toEqual([String(s.ben.seq), String(s.chen.seq)]);
    expect(await page.textContent(`${matchRow(s.m, s.ben.seq)} .match-head`)).toBe(
      `#${s.ben.seq} your want Stroller wanted with ben's offer Stroller, barely used · 1 unit`,
    );
    expect(await page.textContent(`${matchRow(s.m, s.ben.seq)} .match-words`)).toBe("words in common: stroller");
    expect(await page.getAttribute(matchRow(s.m, s.ben.seq), "data-state")).toBe("not_opened");
    expect(await page.getAttribute(matchRow(s.m, s.chen.seq), "data-state")).toBe("open");
    expect(await page.textContent(`${market(s.m)} .allowance dd[data-figure="total"]`)).toBe("not set");
    // The market's transcript says its entries in trestle market watch's words.
    const entry = (seq: number) => `#table-${s.m.id} .transcript li[data-seq="${seq}"]`;
    expect(await page.textContent(`${entry(s.bike.seq)} .body`)).toBe(
      `match: ben's offer #${s.bike.data.offer_seq} with chen's want #${s.bike.data.want_seq}, 1 unit (words: balance, bike); its room is ${matchRoomId(s.bike.leaf)}`,
    );
    expect(await page.textContent(`${entry(s.bike.data.want_seq)} .about`)).toMatch(
      /^chen-bot lists a want [0-9a-f]{12}…: "Balance bike" \(baby-gear\), 1 unit, ask, until /,
    );
    await expectAccessible(page, "a market in the window", async () => {
      await page.waitForSelector(matchRow(s.m, s.ben.seq));
      expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(
        true,
      );
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "window-market-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.click(`${matchRow(s.m, s.ben.seq)} button:text-is("Open the room (sign)")`);
    await page.waitForSelector(".notice.ok");
    expect(await page.textContent(".notice.ok")).toMatch(
      new RegExp(
        `^opened room ${matchRoomId(s.ben.leaf)} of match #${s.ben.seq} and seated ana-bot there as entry #2 `,
      ),
    );
    const benRoom = (await page.getAttribute(matchRow(s.m, s.ben.seq), "data-room"))!;
    await page.waitForSelector(`${matchRow(s.m, s.ben.seq)}[data-state="open"] a.room-link[href="#table-${benRoom}"]`);
    await page.waitForSelector(`#table-${benRoom} .chip.status-live`);

    await page.click(`${matchRow(s.m, s.chen.seq)} button:text-is("Enter the room (sign)")`);
    await page.waitForSelector(
      `.notice.ok:has-text("joined room ${s.chenRoom} of match #${s.chen.seq} as its other side")`,
    );
    await page.waitForSelector(`${matchRow(s.m, s.chen.seq)} a.room-link`);
    expect(await page.textContent(`${matchRow(s.m, s.chen.seq)} .match-room`)).toBe(`open room ${s.chenRoom}`);
    expect(await page.textContent(`${matchRow(s.m, s.chen.seq)} .match-state`)).toBe("open: negotiating");
    // The link to a room's card keeps the window's token: a reload still shows the window.
    await page.click(`${matchRow(s.m, s.chen.seq)} a.room-link`);
    await page.reload();
    await page.waitForSelector(`${matchRow(s.m, s.chen.seq)} a.room-link`);
    await screenshot(page, "window-market");
  });

  describe("when the request names a match that is not the owner's", () => {
    it("refuses it with E_FORBIDDEN on the page and opens no room", async () => {
      const s = await swapMarket();
      const page = await anaPage(s.m, s.home);
      await page.route("**/api/market-room", (route) =>
        route.continue({ postData: JSON.stringify({ table: s.m.id, match: s.bike.seq }) }),
      );
      await page.click(`${matchRow(s.m, s.ben.seq)} button:text-is("Open the room (sign)")`);
      await page.waitForSelector(".notice.bad");
      expect(await page.textContent(".notice.bad")).toBe(
        `E_FORBIDDEN: match ${s.bike.seq} of ${s.m.id} is not ana's: this owner key is neither side`,
      );
      expect(await page.isEnabled(`${matchRow(s.m, s.ben.seq)} button:text-is("Open the room (sign)")`)).toBe(true);
      const http = new HttpClient({ url: relay.url });
      const rooms = (await s.m.read("hana", `/tables/${s.m.id}/entries?from=1`)).body.items.filter(
        (e: Entry) => e.kind === "system" && e.subkind === "match",
      );
      expect(
        await Promise.all(rooms.map((e: SystemEntryOf<"match">) => roomPresence(http, matchRoomId(e.leaf)))),
      ).toEqual(["none", "open", "none"]);
    });
  });

  it("signs a room's deal by click, shows it done and recorded by the market, and reconciles the allowance from reserved to spent", async () => {
    const f = await marketRooms(relay.url, ["ben"]);
    const room = f.rooms.ben!;
    await mandateAt(f, f.m.id, { allowance: { currency: "USD", total: 10_000, open: 4 } });
    await mandateAt(f, room, { allowance: { currency: "USD", total: 10_000, open: 4 } });
    const offer = await sellerOffers(f, "ben", 2_500);
    const ana = await guardOf(f, room);
    await ana.send({ kind: "accept", offer });
    const deal = (await ana.transcript()).state!.room!.deals[offer]!;
    expect201(await f.m.signDeal("ben", room, "ben-bot", offer, deal.terms_sha256));
    const match = await matchOf(f.m, "ben", "ana");
    const page = await anaPage(f.m, f.home, [room]);
    const row = matchRow(f.m, match.seq);
    await page.waitForSelector(`${row}[data-state="deal_pending"] .deal-pending`);
    expect(await page.textContent(`${row} .match-room`)).toBe(`deal pending room ${room}`);
    expect(await page.textContent(`${row} .match-state`)).toBe(
      `deal pending on offer #${deal.terms.offer_seq}: not final, waiting for ana to sign`,
    );
    const figures = () =>
      page.$$eval(`${market(f.m)} .allowance dd`, (dds) =>
        Object.fromEntries(dds.map((dd) => [dd.getAttribute("data-figure"), dd.textContent])),
      );
    expect(await figures()).toEqual({
      total: "100.00 USD",
      spent: "0.00 USD",
      reserved: "25.00 USD",
      left: "75.00 USD",
      open: "1 of at most 4",
    });
    expect(await page.textContent(`${market(f.m)} .commitments .commitment-open`)).toBe(
      `open: accept #${deal.terms.accept_seq} by ana-bot in ${room}, as the buyer: 25.00 USD`,
    );

    await page.click(`${row} button:text-is("Sign the deal (sign)")`);
    await page.waitForSelector(`.notice.ok:has-text("signed with ana's key")`);
    await page.waitForSelector(`${row}[data-state="deal_done"] .deal-done`);
    await page
      .locator(`${row} .match-state`, { hasText: /^deal done: both owners signed, recorded in the market at #\d+$/ })
      .waitFor();
    // Ana wanted one stroller: the recorded deal filled her want.
    await page.waitForSelector(`${market(f.m)} li.listing[data-standing="filled"]`);
    expect(await page.textContent(`${market(f.m)} li.listing .listing-facts`)).toMatch(/ · 0 of 1 left · ask$/);
    expect(await page.textContent(`${market(f.m)} li.listing .listing-when`)).toMatch(
      /^filled: recorded deals closed all 1 \(the last at #\d+\)$/,
    );

    await page.click(`${market(f.m)} .allowance button:text-is("Reconcile with the rooms")`);
    await page.waitForSelector(`.notice.ok:has-text("reconciled")`);
    expect(await page.textContent(".notice.ok")).toBe(
      `allowance in ${f.m.id} reconciled with ana's seats' keys; before: spent 0.00 USD, reserved 25.00 USD, 1 open; after: spent 25.00 USD, reserved 0.00 USD, 0 open; ${room} brought up to date`,
    );
    await page.locator(`${market(f.m)} .allowance dd[data-figure="spent"]`, { hasText: /^25\.00 USD$/ }).waitFor();
    expect(await figures()).toEqual({
      total: "100.00 USD",
      spent: "25.00 USD",
      reserved: "0.00 USD",
      left: "75.00 USD",
      open: "0 of at most 4",
    });
    expect(
      storeOf(f)
        .read()
        .commitments.map((c) => c.state),
    ).toEqual(["spent"]);
    await expectAccessible(page, "a market's deal and allowance in the window", async () => {
      await page.waitForSelector(`${row}[data-state="deal_done"]`);
      expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(
        true,
      );
    });
    await screenshot(page, "window-market-deal");
    await elementShot(page, "window-market-panel", "#markets-panel");
  });
});
