/**
 * Markets from the command line (docs/CLI.md "Markets"): three owners on three machines (three
 * homes) run `trestle market …` against a real relay: the creator opens a market and admits one
 * member by owner key (joined with no code) and one by link; members list, are matched at once,
 * search, write new versions and withdraw; a listing that would disclose a never_disclose string is
 * refused by the leak gate before it is signed; `market watch` prints listings and matches live;
 * `market matches` and `market room` take one match to its room from both sides, the room seat
 * carrying the market seat's mandate; and every bad input is a clear code, the ledger unchanged.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

type Cli = ReturnType<typeof cli>;
let relay: LocalRelay;
let hana: Cli;
let ana: Cli;
let ben: Cli;
const market = uniqueTable("m-cli");
const keys: Record<string, string> = {};
let matchSeq = 0;
let secondMatch = 0;
let benHome = "";

beforeAll(async () => {
  relay = await sharedRelay();
  const home = (name: string) => mkdtempSync(join(tmpdir(), `trestle-market-${name}-`));
  benHome = home("ben");
  [hana, ana, ben] = [cli(home("hana"), relay.url), cli(home("ana"), relay.url), cli(benHome, relay.url)];
  for (const [name, side] of [
    ["hana", hana],
    ["ana", ana],
    ["ben", ben],
  ] as const)
    keys[name] = (await side.json(["keygen", "--owner", name])).body!.public_key;
}, 60_000);

const at = (seat: string) => ["--table", market, "--seat", seat];

/** The live listings the market answers `owner` for `args` (search flags). */
async function search(
  side: Cli,
  owner: string,
  args: string[] = [],
): Promise<{ seq: number; leaf: string; title: string; owner: string; price?: unknown }[]> {
  const run = await side.json(["market", "search", "--table", market, "--owner", owner, ...args]);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return run.body!.items;
}

/** Runs `args` expecting exit `code` with error `error`; returns the envelope. */
async function refused(side: Cli, args: string[], code: number, error: string): Promise<Record<string, any>> {
  const run = await side.json(args);
  expect(run.code, run.stdout + run.stderr).toBe(code);
  expect(run.body!.error.code).toBe(error);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return run.body!.error;
}

describe("a market from the command line", { timeout: 90_000 }, () => {
  it("opens a market with its categories and rules, and seats the creator's bot", async () => {
    const created = await hana.run([
      "market",
      "create",
      "--table",
      market,
      "--owner",
      "hana",
      "--topic",
      "Parents' swap",
      "--categories",
      "baby-gear,books",
      "--listing-ttl",
      "3d",
      "--listings-per-member",
      "3",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`created market ${market}`);
    expect((await hana.run(["join", ...at("hana-bot"), "--owner", "hana"])).code).toBe(0);
  });

  it("admits ana by her owner key: she joins with the invite alone, no code", async () => {
    const admitted = await hana.json(["market", "admit", "--table", market, "--owner", "hana", "--key", keys.ana!]);
    expect(admitted.code, admitted.stderr).toBe(0);
    expect(admitted.body).toMatchObject({ table: market, owner_key: keys.ana });
    const joined = await ana.run([
      "market",
      "join",
      "--table",
      market,
      "--invite",
      admitted.body!.invite,
      "--owner",
      "ana",
      "--seat",
      "ana-bot",
    ]);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(`ana-bot joined market ${market} for ana`);
  });

  it("admits ben by a link he joins with", async () => {
    const admitted = await hana.json(["market", "admit", "--table", market, "--owner", "hana", "--code"]);
    expect(admitted.code).toBe(0);
    const joined = await ben.run(["market", "join", admitted.body!.link, "--owner", "ben", "--seat", "ben-bot"]);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(`ben-bot joined market ${market} for ben`);
  });

  it("refuses ben's use of an invite bound to ana's key (E_INVITE), by the invite or by its link", async () => {
    const admitted = await hana.json(["market", "admit", "--table", market, "--owner", "hana", "--key", keys.ana!]);
    await refused(
      ben,
      ["market", "join", "--table", market, "--invite", admitted.body!.invite, "--owner", "ben", "--seat", "ben-2"],
      3,
      "E_INVITE",
    );
    const error = await refused(
      ben,
      ["market", "join", admitted.body!.link, "--owner", "ben", "--seat", "ben-2"],
      3,
      "E_INVITE",
    );
    expect(error.details).toMatchObject({ reason: "other_key" });
  });

  it("lists an offer and a want, which match at once, and finds them by words and category", async () => {
    expect(
      (
        await ana.run([
          "mandate",
          "set",
          ...at("ana-bot"),
          "--owner",
          "ana",
          "--currency",
          "TWD",
          "--cap",
          "500000",
          "--floor",
          "280000",
          "--never-disclose",
          "2800",
        ])
      ).code,
    ).toBe(0);
    const offered = await ana.run([
      "market",
      "list",
      ...at("ana-bot"),
      "--side",
      "offer",
      "--title",
      "Bugaboo stroller",
      "--text",
      "folds flat, rain cover",
      "--category",
      "baby-gear",
      "--currency",
      "TWD",
      "--min",
      "300000",
    ]);
    expect(offered.code, offered.stderr).toBe(0);
    expect(offered.stdout).toMatch(/^listing written as entry #\d+/);
    const wanted = await ben.json([
      "market",
      "list",
      ...at("ben-bot"),
      "--side",
      "want",
      "--title",
      "Strollers wanted",
      "--category",
      "baby-gear",
      "--currency",
      "TWD",
      "--max",
      "350000",
    ]);
    expect(wanted.code, wanted.stderr).toBe(0);
    expect(wanted.body!.matches).toHaveLength(1);
    matchSeq = wanted.body!.matches[0];
    const found = await search(hana, "hana", ["--q", "stroller", "--side", "offer", "--category", "baby-gear"]);
    expect(found).toEqual([
      expect.objectContaining({ title: "Bugaboo stroller", owner: "ana", price: { currency: "TWD", min: 300000 } }),
    ]);
    expect(await search(hana, "hana", ["--q", "crib"])).toEqual([]);
    const text = await hana.run(["market", "search", "--table", market, "--owner", "hana", "--by", "ben"]);
    expect(text.stdout).toMatch(
      /^#\d+ [0-9a-f]{12}… want "Strollers wanted" \(baby-gear\), 1 of 1 left, up to 3,500\.00 TWD, by ben \(ben-bot\), until /m,
    );
  });

  it("refuses a listing whose text would disclose the seat's never_disclose string, before it is signed", async () => {
    const before = await search(ana, "ana", ["--by", "ana"]);
    const leak = await ana.run([
      "market",
      "list",
      ...at("ana-bot"),
      "--side",
      "offer",
      "--title",
      "Baby carrier",
      "--text",
      "I would take 2,800 for it",
      "--category",
      "baby-gear",
    ]);
    expect(leak.code).toBe(3);
    expect(leak.stderr).toMatch(/E_MANDATE.*never_disclose entry #1/);
    expect(leak.stderr).not.toContain("2,800");
    expect(await search(ana, "ana", ["--by", "ana"])).toEqual(before);
  });

  it("writes a new version of a listing, which supersedes the old, and withdraws one", async () => {
    const [old] = await search(ana, "ana", ["--by", "ana", "--q", "bugaboo"]);
    // Any price flag replaces the whole range, in the old currency unless --currency names another: now above ben's want, so no new match.
    const updated = await ana.json([
      "market",
      "update",
      String(old!.seq),
      ...at("ana-bot"),
      "--title",
      "Bugaboo Fox stroller",
      "--min",
      "360000",
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.body!.matches).toEqual([]);
    const [now] = await search(ana, "ana", ["--by", "ana"]);
    expect(now).toMatchObject({ title: "Bugaboo Fox stroller", price: { currency: "TWD", min: 360000 } });
    expect(now!.leaf).not.toBe(old!.leaf);
    const listed = await ana.json([
      "market",
      "list",
      ...at("ana-bot"),
      "--side",
      "offer",
      "--title",
      "Picture books",
      "--category",
      "books",
      "--quantity",
      "4",
    ]);
    expect((await ana.run(["market", "withdraw", listed.body!.leaf.slice(0, 12), ...at("ana-bot")])).code).toBe(0);
    expect(await search(ana, "ana", ["--category", "books"])).toEqual([]);
  });

  it("lists the owner's matches with each room's id, not opened yet", async () => {
    const listed = await ben.json(["market", "matches", "--table", market, "--owner", "ben"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.body).toEqual([
      expect.objectContaining({
        seq: matchSeq,
        side: "want",
        other: { owner: "ana", key: keys.ana },
        room: expect.stringMatching(/^mr-[0-9a-f]{40}$/),
        room_presence: "none",
        deal: null,
      }),
    ]);
    const text = await ben.run(["market", "matches", "--table", market, "--owner", "ben"]);
    expect(text.stdout).toMatch(
      new RegExp(
        `^match #${matchSeq}: your want "Strollers wanted" with ana's offer "Bugaboo stroller", 1 unit; room mr-[0-9a-f]{40} not opened yet$`,
        "m",
      ),
    );
  });

  it("opens the match's room for one side and joins it for the other, no code passed, the mandate carried", async () => {
    const opened = await ben.json(["market", "room", String(matchSeq), "--table", market, "--owner", "ben"]);
    expect(opened.code, opened.stdout + opened.stderr).toBe(0);
    expect(opened.body).toMatchObject({ how: "opened", match: matchSeq, seat: "ben-bot", mandate: "none" });
    const room: string = opened.body!.room;
    const joined = await ana.json(["market", "room", String(matchSeq), "--table", market, "--owner", "ana"]);
    expect(joined.code, joined.stdout + joined.stderr).toBe(0);
    expect(joined.body).toMatchObject({ how: "joined", room, seat: "ana-bot", mandate: "carried" });
    const mandate = await ana.json(["mandate", "show", "--table", room, "--seat", "ana-bot", "--owner", "ana"]);
    expect(mandate.body!.mandate).toMatchObject({
      table: room,
      seat: "ana-bot",
      money: { currency: "TWD", cap: 500000, floor: 280000 },
      never_disclose: ["2800"],
    });
    const leak = await ana.run(["say", "--table", room, "--seat", "ana-bot", "my floor is 2800"]);
    expect(leak.code).toBe(3);
    expect(leak.stderr).toMatch(/E_MANDATE.*never_disclose entry #1/);
    const again = await ana.json([
      "market",
      "room",
      String(matchSeq),
      "--table",
      market,
      "--owner",
      "ana",
      "--seat",
      "ana-2",
    ]);
    expect(again.body).toMatchObject({ how: "seated", room, seat: "ana-2" });
    const listed = await ben.json(["market", "matches", "--table", market, "--owner", "ben"]);
    expect(listed.body![0]).toMatchObject({ room, room_presence: "open" });
  });

  it("follows the market live: a new listing and the match it makes, flagged for the owner it concerns", async () => {
    const watching = ana.start(["market", "watch", "--table", market, "--owner", "ana"]);
    await watching.printed(/watching .* as owner ana/);
    const wanted = await ben.json([
      "market",
      "list",
      ...at("ben-bot"),
      "--side",
      "want",
      "--title",
      "Fox stroller rain cover",
      "--category",
      "baby-gear",
    ]);
    expect(wanted.code, wanted.stderr).toBe(0);
    const seq = wanted.body!.matches[0];
    secondMatch = seq;
    await watching.printed(
      new RegExp(
        `\\[#${wanted.body!.seq}\\] ben-bot lists a want [0-9a-f]{12}…: "Fox stroller rain cover" \\(baby-gear\\), 1 unit, ask`,
      ),
    );
    await watching.printed(
      new RegExp(
        `\\[#${seq}\\] match: ana's offer #\\d+ with ben's want #${wanted.body!.seq}, 1 unit \\(words: fox, stroller\\); its room is mr-[0-9a-f]{40}`,
      ),
    );
    await watching.printed(
      new RegExp(
        `match #${seq} is yours: open or join its room with trestle market room ${seq} --table ${market} --owner ana`,
      ),
    );
    watching.child.kill("SIGINT");
    expect((await watching.done).code).toBe(0);
  });

  it("refuses to open a match's room while the market seat's mandate does not hold (E_MANDATE), opening nothing", async () => {
    const path = join(benHome, "mandates", market, "ben-bot.json");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{ not a mandate", { mode: 0o600 });
    const error = await refused(
      ben,
      ["market", "room", String(secondMatch), "--table", market, "--owner", "ben"],
      3,
      "E_MANDATE",
    );
    expect(error).toMatchObject({
      message: expect.stringContaining("does not hold"),
      details: { reason: "malformed" },
    });
    const listed = await ben.json(["market", "matches", "--table", market, "--owner", "ben"]);
    expect(listed.body!.find((m: { seq: number }) => m.seq === secondMatch)).toMatchObject({ room_presence: "none" });
    rmSync(path);
  });

  describe("when the input does not fit", () => {
    it.each([
      [
        "a category that is no name",
        "hana",
        ["market", "create", "--table", "m-bad", "--owner", "hana", "--topic", "x", "--categories", "Baby Gear"],
        /--categories: "Baby Gear" is not a category name/,
      ],
      [
        "both --key and --code",
        "hana",
        ["market", "admit", "--table", market, "--owner", "hana", "--code", "--key", "x"],
        /exactly one of --key/,
      ],
      [
        "a key that is no public key",
        "hana",
        ["market", "admit", "--table", market, "--owner", "hana", "--key", "not-a-key"],
        /--key must be the member's owner public key/,
      ],
      [
        "a join with both a link and --invite",
        "ben",
        ["market", "join", "ABCD-EFGH", "--table", market, "--invite", "x", "--owner", "ben", "--seat", "s"],
        /either an invite link or code, or --invite/,
      ],
      [
        "a side that is neither",
        "ana",
        ["market", "list", ...at("ana-bot"), "--side", "sell", "--title", "x", "--category", "books"],
        /--side must be offer or want, not "sell"/,
      ],
      [
        "a range whose min is above its max",
        "ana",
        [
          "market",
          "list",
          ...at("ana-bot"),
          "--side",
          "offer",
          "--title",
          "x",
          "--category",
          "books",
          "--currency",
          "TWD",
          "--min",
          "5",
          "--max",
          "4",
        ],
        /--min must be at most --max/,
      ],
      [
        "a range without a currency",
        "ana",
        ["market", "list", ...at("ana-bot"), "--side", "offer", "--title", "x", "--category", "books", "--max", "4"],
        /--min and --max need --currency/,
      ],
      [
        "a match that is no seq",
        "ana",
        ["market", "room", "first", "--table", market, "--owner", "ana"],
        /name the match by its entry's seq/,
      ],
    ] as const)("refuses %s as a usage error (exit 2), sending nothing", async (_, who, args, message) => {
      const run = await { hana, ana, ben }[who].run(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    });

    it("refuses a category the market does not have (E_SCHEMA), an unknown listing (E_UNKNOWN_LISTING) and another owner's match (E_FORBIDDEN)", async () => {
      const error = await refused(
        ana,
        ["market", "list", ...at("ana-bot"), "--side", "offer", "--title", "Bike", "--category", "bikes"],
        3,
        "E_SCHEMA",
      );
      expect(error.message).toContain("baby-gear, books");
      await refused(ana, ["market", "withdraw", "99999", ...at("ana-bot")], 3, "E_UNKNOWN_LISTING");
      await refused(hana, ["market", "room", String(matchSeq), "--table", market, "--owner", "hana"], 3, "E_FORBIDDEN");
      await refused(ana, ["market", "room", "99999", "--table", market, "--owner", "ana"], 3, "E_UNKNOWN_MATCH");
    });

    it("refuses another member's listing (E_FORBIDDEN) and a deal record before any deal (E_NOT_ALLOWED)", async () => {
      const [bens] = await search(ben, "ben", ["--by", "ben"]);
      await refused(ana, ["market", "withdraw", String(bens!.seq), ...at("ana-bot")], 3, "E_FORBIDDEN");
      const room = (await ben.json(["market", "matches", "--table", market, "--owner", "ben"])).body![0].room;
      const error = await refused(ben, ["market", "record", room, "--table", market], 3, "E_NOT_ALLOWED");
      expect(error.details).toMatchObject({ reason: "no_deal" });
    });

    it("refuses an unsigned search of a members-only market (E_AUTH), and answers one of a public market", async () => {
      await refused(hana, ["market", "search", "--table", market], 3, "E_AUTH");
      const open = uniqueTable("m-cli-public");
      expect(
        (
          await hana.run([
            "market",
            "create",
            "--table",
            open,
            "--owner",
            "hana",
            "--topic",
            "Open swap",
            "--categories",
            "books",
            "--public",
          ])
        ).code,
      ).toBe(0);
      const found = await hana.json(["market", "search", "--table", open]);
      expect(found.code, found.stderr).toBe(0);
      expect(found.body!.items).toEqual([]);
    });
  });
});
