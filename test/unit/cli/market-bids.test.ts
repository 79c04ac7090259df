/**
 * Sealed bids on a listing from the command line (docs/CLI.md "Markets", docs/MARKETS.md "Sealed
 * bids on a listing"): four owners on four machines (four homes) against a real relay. Ana lists a
 * cot for sealed bids (times from now, or in ISO 8601); ben and chen commit bids whose opening stays
 * in their homes, each reserved in the owner's allowance (`trestle allowance show` lists it); a bid
 * past the allowance, on a listing that takes none, or on one's own listing is refused before
 * anything is signed; a reveal before bidding closed, after reveals closed or of nothing committed
 * is refused with the window in words; once bidding closed both reveal, the relay sells the cot to
 * ben at chen's bid, and ben's allowance counts the sale's deal at that price, once.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { openCliMarket } from "../../support/cli-market.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

const NAMES = ["hana", "ana", "ben", "chen"] as const;
type Name = (typeof NAMES)[number];
let relay: LocalRelay;
const homes = {} as Record<Name, string>;
const sides = {} as Record<Name, ReturnType<typeof cli>>;
const market = uniqueTable("m-bids");
/** The cot's listing (by seq) and its window, the chair's (sealed, bid on later), and a plain stroller's. */
const cot = { seq: 0, until: 0, reveal_until: 0 };
let chair = 0;
let stroller = 0;

beforeAll(async () => {
  relay = await sharedRelay();
  for (const name of NAMES) {
    homes[name] = mkdtempSync(join(tmpdir(), `trestle-bids-${name}-`));
    sides[name] = cli(homes[name], relay.url);
  }
  await openCliMarket(ok, market, ["ana", "ben", "chen"]);
  await ok("ana", ["mandate", "set", ...at("ana"), "--owner", "ana", "--currency", "USD", "--cap", "8000"]);
  await ok("ben", [
    "mandate",
    "set",
    ...at("ben"),
    "--owner",
    "ben",
    "--currency",
    "USD",
    "--cap",
    "8000",
    "--allowance",
    "10000",
  ]);
  await ok("chen", [
    "mandate",
    "set",
    ...at("chen"),
    "--owner",
    "chen",
    "--currency",
    "USD",
    "--cap",
    "8000",
    "--allowance",
    "6000",
  ]);
}, 60_000);

const at = (who: Name) => ["--table", market, "--seat", `${who}-bot`];

/** Runs `args` as `who` and expects exit 0; returns the JSON it printed. */
async function ok(who: Name, args: string[]): Promise<any> {
  const run = await sides[who].json(args);
  expect(run.code, `${who}: trestle ${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0);
  return run.body;
}

/** Runs `args` as `who` (at `clock`, when given) expecting exit `code` with error `error`, the market's ledger unchanged; returns the error envelope. */
async function refused(
  who: Name,
  args: string[],
  code: number,
  error: string,
  clock?: number,
): Promise<Record<string, any>> {
  const before = await entries();
  const run = await sides[who].json(args, clock === undefined ? {} : { clock: () => clock });
  expect(run.code, run.stdout + run.stderr).toBe(code);
  expect(run.body!.error.code).toBe(error);
  expect(await entries()).toBe(before);
  return run.body!.error;
}

/** How many entries the market holds, as hana's seat reads it. */
async function entries(): Promise<number> {
  return (await ok("hana", ["read", ...at("hana")])).cursor;
}

const listing = ["market", "list", ...at("ana"), "--side", "offer", "--category", "baby-gear"];

describe("sealed bids on a listing from the command line", { timeout: 120_000 }, () => {
  it("lists an offer for sealed bids until times given from now or in ISO 8601, its reserve as --min", async () => {
    const listed = await ok("ana", [
      ...listing,
      "--title",
      "Cot",
      "--currency",
      "USD",
      "--min",
      "2000",
      "--sealed-until",
      "20s",
      "--reveal-until",
      "4m",
    ]);
    expect(listed.sealed.reveal_until - listed.sealed.until).toBe(4 * 60_000 - 20_000);
    Object.assign(cot, { seq: listed.seq, ...listed.sealed });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const revealUntil = new Date(Date.now() + 7_200_000).toISOString().replace("Z", "+00:00");
    const text = await sides.ana.run([
      ...listing,
      "--title",
      "High chair",
      "--currency",
      "USD",
      "--min",
      "0",
      "--sealed-until",
      until,
      "--reveal-until",
      revealUntil,
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `it takes sealed bids until ${until}, revealed until ${new Date(Date.parse(revealUntil)).toISOString()}: members bid with trestle market bid`,
    );
    chair = Number(/written as entry #(\d+)/.exec(text.stdout)![1]);
    stroller = (await ok("ana", [...listing, "--title", "Stroller", "--currency", "USD", "--min", "3000"])).seq;
  });

  describe("when the flags do not make a sealed offer", () => {
    it("refuses half a window, a want, a --max, a time that is neither a duration nor ISO 8601, and a reveal window ending before bidding does, before anything is signed", async () => {
      const cases: [string[], RegExp][] = [
        [["--side", "offer", "--sealed-until", "1h"], /--sealed-until and --reveal-until go together/],
        [["--side", "want", "--sealed-until", "1h", "--reveal-until", "2h"], /only an offer takes sealed bids/],
        [["--side", "offer", "--max", "9000", "--sealed-until", "1h", "--reveal-until", "2h"], /priced by its reserve/],
        [
          ["--side", "offer", "--sealed-until", "tomorrow", "--reveal-until", "2h"],
          /--sealed-until takes a time: .* not "tomorrow"/,
        ],
        [
          ["--side", "offer", "--sealed-until", "2025-02-30T10:00:00Z", "--reveal-until", "2h"],
          /not "2025-02-30T10:00:00Z"/,
        ],
        [
          ["--side", "offer", "--sealed-until", "2h", "--reveal-until", "1h"],
          /--reveal-until must come after --sealed-until/,
        ],
      ];
      for (const [flags, message] of cases) {
        const run = await sides.ana.run([
          "market",
          "list",
          ...at("ana"),
          "--title",
          "Cot",
          "--category",
          "baby-gear",
          "--currency",
          "USD",
          "--min",
          "0",
          ...flags,
        ]);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(message);
      }
    });
  });

  it("keeps a sealed listing's terms in its new version, and refuses --ask on it as a usage error", async () => {
    const listed = await ok("ana", [
      ...listing,
      "--title",
      "Rocking horse",
      "--currency",
      "USD",
      "--min",
      "500",
      "--sealed-until",
      "1h",
      "--reveal-until",
      "2h",
    ]);
    const updated = await ok("ana", [
      "market",
      "update",
      String(listed.seq),
      ...at("ana"),
      "--title",
      "Rocking horse, oak",
    ]);
    expect(updated.sealed).toEqual(listed.sealed);
    await refused("ana", ["market", "update", String(updated.seq), ...at("ana"), "--ask"], 2, "E_USAGE");
  });

  it("commits ben's and chen's bids: only the hash reaches the ledger, and the opening stays in each home unless asked for", async () => {
    const bens = await sides.ben.json(["market", "bid", String(cot.seq), ...at("ben"), "--amount", "7000"]);
    expect(bens.code, bens.stderr).toBe(0);
    expect(bens.body).toMatchObject({ until: cot.until, reveal_until: cot.reveal_until });
    expect(bens.body).not.toHaveProperty("opening");
    const journal = join(homes.ben, "private", market, "ben-bot.jsonl");
    const salt = JSON.parse(
      readFileSync(journal, "utf8")
        .trim()
        .split("\n")
        .find((l) => l.includes('"market_bid"'))!,
    ).salt as string;
    expect(bens.stdout).not.toContain(salt);
    const chens = await sides.chen.run([
      "market",
      "bid",
      String(cot.seq),
      ...at("chen"),
      "--amount",
      "5000",
      "--show-opening",
    ]);
    expect(chens.code, chens.stderr).toBe(0);
    expect(chens.stdout).toMatch(/only its hash is in the ledger; the bid and its salt stay in this home's journal/);
    expect(chens.stdout).toMatch(/opening \(whoever holds it can reveal the bid\): bid 5000, salt [A-Za-z0-9_-]{24}/);
    const exported = await sides.hana.run(["export", "--table", market, "--owner", "hana"]);
    expect(exported.stdout).toContain(bens.body!.commitment);
    expect(exported.stdout).not.toContain(salt);
  });

  it("lists the reserved bid in trestle allowance show", async () => {
    const shown = await sides.ben.run(["allowance", "show", "--owner", "ben", "--market", market]);
    expect(shown.stdout).toMatch(
      new RegExp(
        `ben in market ${market}: spent 0\\.00 USD, reserved 70\\.00 USD, 1 open\\n  ${market}  sealed bid #\\d+ on listing [0-9a-f]{12}…  buyer  70\\.00 USD`,
      ),
    );
  });

  describe("when a bid cannot be committed", () => {
    it("refuses a bid past the owner's allowance (E_MANDATE) before anything is signed or sent", async () => {
      const error = await refused(
        "ben",
        ["market", "bid", String(chair), ...at("ben"), "--amount", "4000"],
        3,
        "E_MANDATE",
      );
      expect(error.details.reason).toBe("allowance");
      expect(error.message).toMatch(
        /4000 USD \(minor units\) would bring what the owner spent and holds reserved across market .* to 110\.00 USD \(11000 minor units\), past their allowance of 100\.00 USD/,
      );
      const store = JSON.parse(readFileSync(join(homes.ben, "allowances", "ben", `${market}.json`), "utf8"));
      expect(store.commitments).toHaveLength(1);
    });

    it("refuses a bid on a listing that takes none (E_NOT_ALLOWED) and the seller's bid on its own listing (E_FORBIDDEN)", async () => {
      expect(
        (
          await refused(
            "ben",
            ["market", "bid", String(stroller), ...at("ben"), "--amount", "3000"],
            3,
            "E_NOT_ALLOWED",
          )
        ).message,
      ).toMatch(/takes no sealed bids/);
      expect(
        (await refused("ana", ["market", "bid", String(cot.seq), ...at("ana"), "--amount", "3000"], 3, "E_FORBIDDEN"))
          .message,
      ).toMatch(/a seller does not bid on its own listing/);
      const run = await sides.ben.run(["market", "bid", String(cot.seq), ...at("ben")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--amount is required");
    });
  });

  describe("when a bid cannot be revealed", () => {
    it("refuses a reveal before bidding closed (E_NOT_ALLOWED), saying when the window opens and closes", async () => {
      const error = await refused("ben", ["market", "reveal", String(cot.seq), ...at("ben")], 3, "E_NOT_ALLOWED");
      expect(error.details.reason).toBe("sealed");
      expect(error.message).toContain(
        `reveal from ${new Date(cot.until).toISOString()} until ${new Date(cot.reveal_until).toISOString()}`,
      );
    });

    it("refuses a reveal after reveals closed (E_EXPIRED), and one where this home committed nothing (E_NOT_ALLOWED)", async () => {
      const error = await refused(
        "ben",
        ["market", "reveal", String(cot.seq), ...at("ben")],
        3,
        "E_EXPIRED",
        cot.reveal_until + 1_000,
      );
      expect(error).toMatchObject({ details: { reason: "closed", reveal_until: cot.reveal_until } });
      expect(error.message).toContain(
        `reveals on listing entry ${cot.seq} closed at ${new Date(cot.reveal_until).toISOString()}`,
      );
      expect(
        (await refused("hana", ["market", "reveal", String(cot.seq), ...at("hana")], 3, "E_NOT_ALLOWED")).message,
      ).toMatch(/hana has not committed/);
    });
  });

  it("reveals both bids once bidding closed: the cot is sold to ben at chen's bid, and his allowance counts the sale at that price", async () => {
    const left = cot.until + 250 - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    expect((await sides.ben.run(["market", "reveal", String(cot.seq), ...at("ben")])).stdout).toContain(
      "the bids settle once every bidder revealed, or when reveals close",
    );
    const last = await sides.chen.run(["market", "reveal", String(cot.seq), ...at("chen")]);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(/sold by sealed bids to ben at 50\.00 USD/);
    const sale = Number(/its room opens with trestle market room (\d+)/.exec(last.stdout)![1]);
    expect(await ok("chen", ["allowance", "reconcile", "--owner", "chen", "--market", market])).toMatchObject({
      after: { reserved: 0, open: 0 },
    });
    expect(await ok("ben", ["allowance", "reconcile", "--owner", "ben", "--market", market])).toMatchObject({
      before: { reserved: 7_000 },
      after: { reserved: 5_000, open: 1 },
    });

    const { room } = await ok("ben", ["market", "room", String(sale), "--table", market, "--owner", "ben"]);
    await ok("ana", ["market", "room", String(sale), "--table", market, "--owner", "ana"]);
    const shown = await sides.ben.run(["allowance", "show", "--owner", "ben", "--market", market]);
    expect(shown.stdout).toContain(`, won: counts the deal of its sale's room ${room}  buyer  50.00 USD`);
    const offer = (
      await ok("ana", ["room", "offer", "--table", room, "--seat", "ana-bot", "--amount", "5000", "--currency", "USD"])
    ).seq;
    await ok("ben", ["room", "accept", String(offer), "--table", room, "--seat", "ben-bot"]);
    for (const who of ["ben", "ana"] as const)
      await ok(who, ["deal", "sign", String(offer), "--table", room, "--seat", `${who}-bot`, "--owner", who]);
    const done = await ok("ben", ["allowance", "reconcile", "--owner", "ben", "--market", market]);
    expect(done.after).toEqual({ spent: 5_000, reserved: 0, open: 0 });
    expect(readdirSync(join(homes.ben, "allowances", "ben"))).toEqual([`${market}.json`]);
  });
});
