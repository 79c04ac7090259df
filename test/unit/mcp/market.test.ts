/**
 * The market profile (docs/MCP.md "Markets", decisions 0520-0522), against a local relay: ana's
 * `trestle mcp --http --tools market` serves an SDK v2 client pinned to 2026-07-28 and one speaking
 * 2025-11-25; ben's server runs in process (2025-11-25). ana lists a want, ben an offer that the
 * market matches at once; both of ana's clients hear of it on the market's listings and matches
 * resources without polling; search and matches answer from the verified fold with members' words
 * framed and trestle's facts structured; the match's room opens and is joined only after each
 * owner's click in the principal window their link opens (never for a form-only client, nor on a
 * Decline); the two agents strike a deal there, both owners sign it in the window, and the market
 * records it. A listing that spells a never_disclose string, another owner's match and an unknown
 * listing are refused with their codes, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerKeyPath, seatKeyPath } from "../../../src/client/node.js";
import type { McpSettings } from "../../../src/mcp/config.js";
import { settingsEnv } from "../../../src/mcp/print-config.js";
import { profileTools } from "../../../src/mcp/profiles.js";
import { seatFiles, setMandate, type MandateFields } from "../../../src/owner/index.js";
import type { DecisionViewWire } from "../../../src/view/wire.js";
import { cli, type CliProcess } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";
import type { Member } from "../../support/market-fixture.js";
import { MarketHttp } from "../../support/market-http.js";
import { memberHome, seatOf } from "../../support/market-rooms.js";
import { confirmYes, inProcess, overHttp, ownerInWindow, textOf, type Mcp } from "../../support/mcp.js";
import { RelayHttp } from "../../support/relay-http.js";

const TOOLS = profileTools("market");
/** A string ana's mandate says her seat must never write. */
const SECRET = "heron-4471";

let m: MarketHttp;
let relayUrl = "";
let server: CliProcess;
/** ana's server's address and bearer token. */
let mcpUrl = "";
let token = "";
/** ana's clients of `trestle mcp --http`: pinned to 2026-07-28, and speaking 2025-11-25. */
let modern: Mcp;
let legacy: Mcp;
/** ben's server in process (2025-11-25), and what ana and ben saw in their windows. */
let ben: Mcp;
const anaSeen: DecisionViewWire[] = [];
const benSeen: DecisionViewWire[] = [];
const homes = {} as Record<Member, string>;

function settingsOf(member: Member): McpSettings {
  const home = homes[member];
  return {
    url: relayUrl,
    home,
    owner: member,
    ownerKeyFile: ownerKeyPath(home, member),
    seat: seatOf(member),
    seatKeyFile: seatKeyPath(home, seatOf(member)),
    table: m.id,
  };
}

async function mandate(member: Member, over: Partial<MandateFields>): Promise<void> {
  const fields: MandateFields = {
    table: m.id,
    seat: seatOf(member),
    owner: member,
    never_disclose: [],
    require_confirm: [],
    paused: false,
    ...over,
  };
  await setMandate(seatFiles(homes[member], m.id, seatOf(member)).mandate, m.k.owners[member], fields, {
    now: Date.now(),
  });
}

beforeAll(async () => {
  relayUrl = (await sharedRelay()).url;
  m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), relayUrl), uniqueTable("m-mcp"), {
    members: ["ana", "ben", "chen"],
  });
  for (const member of ["ana", "ben", "chen"] as const) homes[member] = await memberHome(m, member);
  await mandate("ana", { money: { currency: "USD", cap: 50_000 }, never_disclose: [SECRET] });
  await mandate("ben", { money: { currency: "USD", cap: 10_000_000, floor: 20_000 } });
  server = cli(homes.ana, relayUrl).start(["mcp", "--http", "--tools", "market"], {
    env: settingsEnv(settingsOf("ana")),
  });
  mcpUrl = (await server.printed(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp);/))[1]!;
  token = (await server.printed(/bearer token (\S+) \(printed once/))[1]!;
  modern = await overHttp(mcpUrl, token, ownerInWindow("approve", anaSeen), "2026-07-28");
  legacy = await overHttp(mcpUrl, token, ownerInWindow("approve", anaSeen), "2025-11-25");
  ben = await inProcess(settingsOf("ben"), ownerInWindow("approve", benSeen), [], { tools: TOOLS });
}, 90_000);
afterAll(async () => {
  await Promise.all([modern?.close(), legacy?.close(), ben?.close()]);
  server?.child.kill("SIGTERM");
  await server?.done;
});

/** The structured content of a call that must succeed. */
async function ok<T = Record<string, unknown>>(mcp: Mcp, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await mcp.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as T;
}

/** The refusal's code of a call that must fail. */
async function refused(
  mcp: Mcp,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string; details?: string }> {
  const result = await mcp.call(name, args);
  expect(result.isError, textOf(result)).toBe(true);
  return (result.structuredContent as { error: { code: string; message: string; details?: string } }).error;
}

/** The next `notifications/resources/updated` naming `uri` that `mcp`'s client hears. */
function updated(mcp: Mcp, uri: string): Promise<string> {
  return new Promise((resolve) =>
    mcp.client.setNotificationHandler("notifications/resources/updated", (notification) => {
      if (notification.params.uri === uri) resolve(notification.params.uri);
    }),
  );
}

async function resourceText(mcp: Mcp, uri: string): Promise<string> {
  return (await mcp.client.readResource({ uri })).contents.map((c) => ("text" in c ? c.text : "")).join("");
}

let want = "";
let offer = "";
let match = 0;
let room = "";

describe("the market profile, in both revisions", { timeout: 60_000 }, () => {
  it("lists the market tools, each with an output schema, to a client of each revision", async () => {
    for (const client of [modern, legacy]) {
      const { tools } = await client.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
    }
    expect(modern.client.getProtocolEra()).toBe("modern");
    expect(legacy.client.getProtocolEra()).toBe("legacy");
  });

  it("lists ana's want through her seat's guards, and refuses one that spells her never_disclose string before signing", async () => {
    const leaking = await refused(modern, "trestle_market_list", {
      table: m.id,
      side: "want",
      title: `stroller, code ${SECRET.toUpperCase()}`,
      category: "baby-gear",
    });
    expect(leaking.code).toBe("E_MANDATE");
    const listed = await ok<{ seq: number; listing: string; matches: unknown[]; kind: string }>(
      modern,
      "trestle_market_list",
      {
        table: m.id,
        side: "want",
        title: "stroller wanted",
        text: "for twins, pick up in town",
        category: "baby-gear",
        price: { currency: "USD", max: 40_000 },
      },
    );
    expect(listed).toMatchObject({ kind: "listing", matches: [] });
    want = listed.listing;
    const history = (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items as {
      kind: string;
      title?: string;
    }[];
    expect(history.filter((e) => e.kind === "listing").map((e) => e.title)).toEqual(["stroller wanted"]);
  });

  it("tells both of ana's clients of ben's matching offer on the market's resources, without polling, and ben of the match at once", async () => {
    const listings = `trestle://tables/${m.id}/listings`;
    const matches = `trestle://tables/${m.id}/matches`;
    expect(await resourceText(legacy, listings)).toContain("title: stroller wanted");
    const heardLegacy = updated(legacy, listings);
    await legacy.client.subscribeResource({ uri: listings });
    const heardModern = updated(modern, matches);
    const subscription = await modern.client.listen({ resourceSubscriptions: [matches] });
    const listed = await ok<{
      listing: string;
      matches: { match: number; owner: string; side: string; listing: string }[];
    }>(ben, "trestle_market_list", {
      side: "offer",
      title: "stroller, barely used",
      category: "baby-gear",
      price: { currency: "USD", min: 25_000, max: 35_000 },
    });
    offer = listed.listing;
    expect(listed.matches).toEqual([{ match: expect.any(Number), owner: "ana", side: "want", listing: want }]);
    match = listed.matches[0]!.match;
    expect(await heardLegacy).toBe(listings);
    expect(await heardModern).toBe(matches);
    await subscription.close();
    const board = await resourceText(modern, matches);
    expect(board).toMatch(
      new RegExp(
        `» match #${match} \\(yours\\): ben's offer #\\d+ with ana's want #\\d+, 1 unit; room mr-[0-9a-f]{40}, no deal recorded`,
      ),
    );
    expect(board).toContain("  | offer: stroller, barely used");
    expect((await modern.client.listResources()).resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([listings, matches]),
    );
  });

  it("searches the verified fold: titles framed as data, only trestle's facts structured", async () => {
    const result = await legacy.call("trestle_market_search", { q: "strollers", side: "offer" });
    const found = result.structuredContent as { listings: Record<string, unknown>[] };
    expect(found.listings).toEqual([
      expect.objectContaining({
        leaf: offer,
        owner: "ben",
        seat: "ben-bot",
        side: "offer",
        category: "baby-gear",
        left: 1,
        price: "250.00-350.00 USD",
        standing: "live",
      }),
    ]);
    expect(JSON.stringify(found)).not.toContain("barely used");
    expect(textOf(result)).toMatch(
      /<<<TRESTLE-DATA \w+ BEGIN>>>[\s\S]*  \| title: stroller, barely used[\s\S]*<<<TRESTLE-DATA \w+ END>>>/,
    );
    expect(
      (await ok<{ listings: unknown[] }>(modern, "trestle_market_search", { table: m.id, category: "books" })).listings,
    ).toEqual([]);
  });

  it("shows ana's match and, named, its detail with the citation checked against the pinned relay key", async () => {
    const mine = await ok<{ matches: Record<string, unknown>[] }>(modern, "trestle_market_matches", { table: m.id });
    expect(mine.matches).toEqual([
      expect.objectContaining({
        match,
        side: "want",
        mine: want,
        theirs: offer,
        other: "ben",
        quantity: 1,
        room_presence: "none",
        deal: null,
      }),
    ]);
    room = mine.matches[0]!.room as string;
    const detail = await modern.call("trestle_market_matches", { table: m.id, match });
    expect(detail.structuredContent).toMatchObject({ cited: match });
    expect(textOf(detail)).toContain("  | text: for twins, pick up in town");
    const other = await refused(modern, "trestle_market_matches", { table: m.id, match: 1 });
    expect(other.code).toBe("E_UNKNOWN_MATCH");
  });

  it("opens the room only on ana's Approve in the window: never for a form-only client, nor on a Decline", async () => {
    const formOnly = await inProcess(settingsOf("ana"), confirmYes, [], { tools: TOOLS, modes: "form" });
    try {
      const refusal = await refused(formOnly, "trestle_market_room", { match });
      expect(refusal).toMatchObject({ code: "E_NOT_CONFIRMED", details: JSON.stringify({ reason: "form_only" }) });
    } finally {
      await formOnly.close();
    }
    const declining = await overHttp(mcpUrl, token, ownerInWindow("decline"), "2026-07-28");
    try {
      expect(await refused(declining, "trestle_market_room", { table: m.id, match })).toMatchObject({
        code: "E_NOT_CONFIRMED",
        details: JSON.stringify({ reason: "declined" }),
      });
    } finally {
      await declining.close();
    }
    expect(
      (await ok<{ matches: { room_presence: string }[] }>(legacy, "trestle_market_matches", {})).matches[0]!
        .room_presence,
    ).toBe("none");

    const opened = await ok(modern, "trestle_market_room", { table: m.id, match });
    expect(opened).toMatchObject({ market: m.id, match, room, how: "opened", seat: "ana-bot", mandate: "carried" });
    const words = anaSeen.at(-1)!.lines.join("\n");
    expect(words).toContain(`open the room of match #${match} in market ${m.id}`);
    expect(words).toContain(`your want "stroller wanted" with ben's offer "stroller, barely used", 1 unit`);
  });

  it("joins ben as the match's other side on his Approve, and refuses the match to an owner who is neither side", async () => {
    const joined = await ok(ben, "trestle_market_room", { match });
    expect(joined).toMatchObject({ room, how: "joined", seat: "ben-bot", mandate: "carried" });
    expect(benSeen.at(-1)!.lines.join("\n")).toContain(`join the room of match #${match}`);
    expect((await ok<{ matches: { room_presence: string }[] }>(ben, "trestle_market_matches", {})).matches).toEqual([
      expect.objectContaining({ match, side: "offer", room_presence: "open" }),
    ]);
    const chen = await inProcess(settingsOf("chen"), ownerInWindow("approve"), [], { tools: TOOLS });
    try {
      expect(await refused(chen, "trestle_market_room", { match })).toMatchObject({
        code: "E_FORBIDDEN",
        message: `match ${match} of ${m.id} is not your owner's: this owner key is neither side`,
      });
      expect(chen.asked).toEqual([]);
      expect((await ok<{ matches: unknown[] }>(chen, "trestle_market_matches", {})).matches).toEqual([]);
    } finally {
      await chen.close();
    }
  });

  it("strikes the deal in the room, signed by both owners in their windows, and the market records it", async () => {
    const offered = await ok<{ seq: number }>(ben, "trestle_room_offer", {
      table: room,
      amount: 30_000,
      currency: "USD",
      text: "the stroller",
    });
    await ok(modern, "trestle_room_accept", { table: room, offer: offered.seq });
    await ok(ben, "trestle_deal_sign", { table: room, offer: offered.seq });
    await ok(legacy, "trestle_deal_sign", { table: room, offer: offered.seq });
    const recorded = await ok<{ room: string; seq: number }>(legacy, "trestle_market_record", { match });
    expect(recorded).toMatchObject({ table: m.id, room });
    const again = await ok<{ seq: number }>(modern, "trestle_market_record", { table: m.id, room });
    expect(again.seq).toBe(recorded.seq);
    expect(
      (await ok<{ matches: { deal: number | null }[] }>(modern, "trestle_market_matches", { table: m.id })).matches[0]!
        .deal,
    ).toBe(recorded.seq);
    expect(await resourceText(legacy, `trestle://tables/${m.id}/matches`)).toContain(
      `deal recorded at #${recorded.seq} for match #${match} (room ${room}) between ben and ana, closing 1 unit`,
    );
  });

  it("updates a listing (a new version, the rest kept) and withdraws it; an unknown listing is refused", async () => {
    const first = await ok<{ listing: string }>(modern, "trestle_market_list", {
      table: m.id,
      side: "offer",
      title: "high chair",
      category: "baby-gear",
      price: { currency: "USD", min: 5_000 },
    });
    const next = await ok<{ listing: string; seq: number }>(legacy, "trestle_market_update", {
      listing: first.listing.slice(0, 12),
      ask: true,
      title: "high chair, wooden",
    });
    const listings = await resourceText(modern, `trestle://tables/${m.id}/listings`);
    expect(listings).toMatch(
      new RegExp(
        `» offer #${next.seq} [0-9a-f]+\\.\\.\\. by ana \\(ana-bot\\), baby-gear, 1 of 1 unit left, ask, live until`,
      ),
    );
    expect(listings).toMatch(/superseded by a new version/);
    await ok(modern, "trestle_market_withdraw", { table: m.id, listing: next.seq });
    expect(
      (await ok<{ listings: unknown[] }>(modern, "trestle_market_search", { table: m.id, q: "chair" })).listings,
    ).toEqual([]);
    expect((await refused(legacy, "trestle_market_withdraw", { listing: "0123456789abcdef" })).code).toBe(
      "E_UNKNOWN_LISTING",
    );
  });
});
