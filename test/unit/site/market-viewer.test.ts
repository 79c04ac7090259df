/**
 * A public market in the relay's viewer (docs/VIEW.md "A public market"), in real Chromium against a
 * real relay (the vitest worker's shared relay and browser): the listings live first and the ended
 * ones with how they ended, the matches with the words they share and their rooms, and the deals the
 * market recorded, folded in the page from the ledger it verified; a listing written later appears
 * live over the public socket with the match it made, verified again. The page passes axe-core at a
 * phone's size and a desktop's, with no horizontal scroll on the phone, and reaches nothing but the relay.
 */
import type { Browser, Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTable } from "../../../src/client/node.js";
import { readTranscript } from "../../../src/owner/index.js";
import type { Entry, SystemEntryOf } from "../../../src/protocol/index.js";
import { expectAccessible } from "../../support/axe.js";
import { elementShot, requestLog, screenshot, sharedChromium } from "../../support/browser.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import type { ListingInput, Member } from "../../support/market-fixture.js";
import { MarketHttp } from "../../support/market-http.js";
import { RelayHttp } from "../../support/relay-http.js";
import { tempHome } from "../../support/room-client.js";
import { expect201 } from "../../support/room-http.js";

let relay: LocalRelay;
let browser: Browser;
let page: Page | undefined;
let requests: string[] = [];
beforeAll(async () => {
  [relay, browser] = await Promise.all([sharedRelay(), sharedChromium()]);
}, 120_000);
afterEach(async () => {
  expect(
    requests.filter((url) => !url.startsWith(relay.url) && !url.startsWith(relay.url.replace("http", "ws"))),
  ).toEqual([]);
  await page?.close();
  page = undefined;
});

/** `member`'s seat lists `input`; returns the listing's entry. */
async function listed(m: MarketHttp, member: Member, input: ListingInput): Promise<Entry> {
  const { body } = expect201(await m.list(member, input));
  return (await m.read(member, `/tables/${m.id}/entries?from=${body.seq}&to=${body.seq}`)).body.items[0];
}

/** Every match entry of `m`, oldest first. */
async function matches(m: MarketHttp): Promise<SystemEntryOf<"match">[]> {
  const items: Entry[] = (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
  return items.filter((e): e is SystemEntryOf<"match"> => e.kind === "system" && e.subkind === "match");
}

/**
 * A public swap market: ana withdrew a crib; ben's stroller matched ana's want, and in the match's
 * room ben offered, ana accepted and both owners signed, so the market recorded the deal (filling
 * ben's listing); dora's books wait, unmatched.
 */
async function publicMarket(): Promise<{ m: MarketHttp; match: SystemEntryOf<"match">; room: string }> {
  const m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), relay.url), uniqueTable("m-public"), {
    members: ["ana", "ben", "chen", "dora"],
    overrides: { public: true },
  });
  const crib = await listed(m, "ana", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
  expect201(await m.write("ana-bot", { kind: "unlist", listing: crib.leaf }));
  await listed(m, "ana", {
    side: "want",
    title: "Stroller wanted",
    category: "baby-gear",
    quantity: 2,
    price: { currency: "USD", max: 6000 },
  });
  await listed(m, "ben", {
    side: "offer",
    title: "Stroller, barely used",
    category: "baby-gear",
    quantity: 1,
    price: { currency: "USD", min: 3000, max: 5000 },
    text: "Folds flat; pick up in Daan",
  });
  await listed(m, "dora", { side: "offer", title: "Picture books", category: "books", quantity: 3 });
  const [match] = await matches(m);
  const { room } = await m.openRoom("ben", match!.seq);
  expect201(await m.joinAs("ben", room, "ben-bot", { as: "owner" }));
  expect201(await m.joinAs("ana", room, "ana-bot"));
  expect201(await m.write("ben-bot", { kind: "offer", terms: { amount: 4000, currency: "USD" } }, room));
  const offer = (await m.read("ana", `/tables/${room}/entries?from=1`, room)).body.items.at(-1).leaf;
  expect201(await m.write("ana-bot", { kind: "accept", offer }, room));
  const transcript = await readTranscript(
    await openTable({ relay: relay.url, table: room, home: tempHome("viewer") }),
    { signer: m.k.owners.ana, as: { owner: "ana" } },
  );
  const deal = transcript.state!.room!.deals[offer]!.terms_sha256;
  expect201(await m.signDeal("ana", room, "ana-bot", offer, deal));
  expect201(await m.signDeal("ben", room, "ben-bot", offer, deal));
  return { m, match: match!, room };
}

/** Opens the viewer of market `m` at a desktop's size and waits for its verdict and board. */
async function viewer(m: MarketHttp): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  requests = requestLog(page);
  await page.goto(`${relay.url}/view/${m.id}`);
  await page.waitForSelector("#verdict.clean");
  await page.waitForSelector("#market li.listing");
  return page;
}

describe("a public market in the viewer", { timeout: 60_000 }, () => {
  it("shows its listings live first, its matches and its recorded deals, verified in the page, and follows new ones live", async () => {
    const { m, match, room } = await publicMarket();
    const p = await viewer(m);
    expect(await p.textContent("#kind")).toBe("public market");
    const listings = await p.$$eval("#market li.listing", (items) =>
      items.map((li) => [
        li.querySelector(".listing-title")?.textContent,
        li.getAttribute("data-standing"),
        li.querySelector(".listing-facts")?.textContent,
      ]),
    );
    expect(listings.map(([title, standing]) => [title, standing])).toEqual([
      ["Picture books", "live"],
      ["Stroller wanted", "live"],
      ["Stroller, barely used", "filled"],
      ["Crib", "withdrawn"],
    ]);
    expect(listings[1]![2]).toMatch(/^#\d+ · baby-gear · 1 of 2 left · up to 60.00 USD · by ana \(ana-bot\)$/);
    expect(listings[2]![2]).toMatch(/^#\d+ · baby-gear · 0 of 1 left · 30.00-50.00 USD · by ben \(ben-bot\)$/);
    expect(await p.textContent('#market li.listing[data-standing="filled"] .listing-text')).toBe(
      "Folds flat; pick up in Daan",
    );
    expect(await p.textContent('#market li.listing[data-standing="withdrawn"] .listing-when')).toMatch(
      /^withdrawn at #\d+$/,
    );
    expect(await p.getAttribute('#market li.listing[data-standing="live"] .listing-when time', "datetime")).toMatch(
      /Z$/,
    );
    const recorded = (await p.getAttribute("#market li.deal", "data-seq"))!;
    expect(await p.textContent("#market li.match .match-head")).toBe(
      `#${match.seq} ben's offer Stroller, barely used (#${match.data.offer_seq}) with ana's want Stroller wanted (#${match.data.want_seq}) · 1 unit`,
    );
    expect(await p.textContent("#market li.match .match-words")).toBe("words in common: stroller");
    expect(await p.textContent("#market li.match .match-room")).toBe(`room ${room} · deal recorded at #${recorded}`);
    expect(await p.textContent("#market li.deal")).toMatch(
      new RegExp(
        `^#${recorded} match #${match.seq} · room ${room} · closed 1 unit · signed by ben and ana over terms [0-9a-f]{12}…$`,
      ),
    );
    expect(await p.textContent("#market .coverage")).toMatch(
      /^Folded in this page by the policy's own code from the \d+ entries verified \(CLEAN\); matching was replayed/,
    );
    await expectAccessible(p, "a public market in the viewer", async () => {
      await p.waitForSelector("#market li.deal");
      expect(await p.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(
        true,
      );
    });
    await p.setViewportSize({ width: 1000, height: 800 });

    await p.waitForSelector(".live.on");
    await listed(m, "chen", { side: "offer", title: "City stroller", category: "baby-gear", quantity: 1 });
    await p.waitForSelector('#market li.listing[data-standing="live"] .listing-title:text-is("City stroller")');
    await p.waitForSelector("#market li.match:nth-child(2)");
    expect(await p.textContent("#market li.match:nth-child(2) .match-head")).toMatch(
      /^#\d+ chen's offer City stroller \(#\d+\) with ana's want Stroller wanted \(#\d+\) · 1 unit$/,
    );
    expect(await p.textContent("#market li.match:nth-child(2) .match-room")).toMatch(/ · no deal recorded yet$/);
    await p.waitForSelector("#verdict.clean");
    expect(await p.textContent(`#entries li[data-seq="${match.seq}"] .body`)).toBe(
      `match: ben's offer #${match.data.offer_seq} with ana's want #${match.data.want_seq}, 1 unit (words: stroller); its room is ${room}`,
    );
    await screenshot(p, "viewer-market");
    await elementShot(p, "viewer-market-board", "main header", "#market");
  });
});
