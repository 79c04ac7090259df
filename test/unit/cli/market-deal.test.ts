/**
 * A market deal end to end, as an outsider does it from the command line (docs/CLI.md "Markets"):
 * three owners on three machines (three homes) and one real relay. hana opens a market and admits
 * ana by her owner key and ben by a link; both sign their market seats' mandates; ana offers a
 * stroller and ben wants one, and the market matches them at once; ben opens the match's room and
 * ana joins it, with no code passed by hand and each room seat under its market seat's limits; ana
 * offers, ben accepts, both owners sign the deal; the market records it (the room asks by itself;
 * asking again answers the same entry), the listing is filled, and both ledgers verify CLEAN.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

type Cli = ReturnType<typeof cli>;
let relay: LocalRelay;
const homes: Record<"hana" | "ana" | "ben", string> = { hana: "", ana: "", ben: "" };
const sides = {} as Record<keyof typeof homes, Cli>;
const market = uniqueTable("m-deal");
let match = "";
let room = "";
let offer = "";

beforeAll(async () => {
  relay = await sharedRelay();
  for (const name of ["hana", "ana", "ben"] as const) {
    homes[name] = mkdtempSync(join(tmpdir(), `trestle-deal-${name}-`));
    sides[name] = cli(homes[name], relay.url);
  }
}, 60_000);

/** Runs `args` as `who` and expects exit 0; returns the JSON it printed. */
async function ok(who: keyof typeof homes, args: string[]): Promise<any> {
  const run = await sides[who].json(args);
  expect(run.code, `${who}: trestle ${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0);
  return run.body;
}

describe("a market deal from the command line, end to end", { timeout: 120_000 }, () => {
  it("opens the market and admits ana by her key and ben by a link", async () => {
    const keys = { ana: "", ben: "" };
    for (const name of ["hana", "ana", "ben"] as const) {
      const made = await ok(name, ["keygen", "--owner", name]);
      if (name !== "hana") keys[name] = made.public_key;
    }
    await ok("hana", [
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
    ]);
    await ok("hana", ["join", "--table", market, "--owner", "hana", "--seat", "hana-bot"]);
    const forAna = await ok("hana", ["market", "admit", "--table", market, "--owner", "hana", "--key", keys.ana]);
    await ok("ana", [
      "market",
      "join",
      "--table",
      market,
      "--invite",
      forAna.invite,
      "--owner",
      "ana",
      "--seat",
      "ana-bot",
    ]);
    const forBen = await ok("hana", ["market", "admit", "--table", market, "--owner", "hana", "--code"]);
    await ok("ben", ["market", "join", forBen.link, "--owner", "ben", "--seat", "ben-bot"]);
  });

  it("signs each member's market seat mandate, lists an offer and a want, and matches them at once", async () => {
    await ok("ana", [
      "mandate",
      "set",
      "--table",
      market,
      "--seat",
      "ana-bot",
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
    ]);
    await ok("ben", [
      "mandate",
      "set",
      "--table",
      market,
      "--seat",
      "ben-bot",
      "--owner",
      "ben",
      "--currency",
      "TWD",
      "--cap",
      "350000",
      "--never-disclose",
      "3500",
    ]);
    await ok("ana", [
      "market",
      "list",
      "--table",
      market,
      "--seat",
      "ana-bot",
      "--side",
      "offer",
      "--title",
      "Bugaboo stroller",
      "--text",
      "folds flat",
      "--category",
      "baby-gear",
      "--currency",
      "TWD",
      "--min",
      "300000",
    ]);
    const wanted = await ok("ben", [
      "market",
      "list",
      "--table",
      market,
      "--seat",
      "ben-bot",
      "--side",
      "want",
      "--title",
      "Stroller wanted",
      "--category",
      "baby-gear",
      "--currency",
      "TWD",
      "--max",
      "340000",
    ]);
    expect(wanted.matches).toHaveLength(1);
    match = String(wanted.matches[0]);
  });

  it("takes the match to its room: ben opens it, ana joins it, no code passed and both mandates carried", async () => {
    const [mine] = await ok("ben", ["market", "matches", "--table", market, "--owner", "ben"]);
    expect(mine).toMatchObject({ seq: Number(match), room_presence: "none" });
    const opened = await ok("ben", ["market", "room", match, "--table", market, "--owner", "ben"]);
    expect(opened).toMatchObject({ how: "opened", room: mine.room, seat: "ben-bot", mandate: "carried" });
    room = opened.room;
    const [theirs] = await ok("ana", ["market", "matches", "--table", market, "--owner", "ana"]);
    expect(theirs).toMatchObject({ room, room_presence: "open" });
    expect(await ok("ana", ["market", "room", match, "--table", market, "--owner", "ana"])).toMatchObject({
      how: "joined",
      room,
      seat: "ana-bot",
      mandate: "carried",
    });
  });

  it("negotiates in the room under the carried mandates: a floor refused, an offer, an accept, both owners' signatures", async () => {
    const under = await sides.ana.run([
      "room",
      "offer",
      "--table",
      room,
      "--seat",
      "ana-bot",
      "--amount",
      "270000",
      "--currency",
      "TWD",
    ]);
    expect(under.code).toBe(3);
    expect(under.stderr).toMatch(/E_MANDATE.*below the mandate's floor/);
    await ok("ana", [
      "room",
      "offer",
      "--table",
      room,
      "--seat",
      "ana-bot",
      "--amount",
      "320000",
      "--currency",
      "TWD",
      "--text",
      "Bugaboo stroller, folds flat",
    ]);
    const shown = await ok("ben", ["room", "show", "--table", room, "--seat", "ben-bot"]);
    offer = String(shown.offers.at(-1).seq);
    await ok("ben", ["room", "accept", offer, "--table", room, "--seat", "ben-bot"]);
    await ok("ana", ["deal", "sign", offer, "--table", room, "--seat", "ana-bot", "--owner", "ana"]);
    await ok("ben", ["deal", "sign", offer, "--table", room, "--seat", "ben-bot", "--owner", "ben"]);
    const deal = await ok("ana", ["deal", "show", offer, "--table", room, "--owner", "ana"]);
    expect(deal.status).toBe("done");
  });

  it("records the deal in the market (asking again answers the same entry) and fills the listing", async () => {
    const recorded = await ok("ana", ["market", "record", match, "--table", market, "--owner", "ana"]);
    expect(await ok("hana", ["market", "record", room, "--table", market])).toMatchObject({ room, seq: recorded.seq });
    const [mine] = await ok("ben", ["market", "matches", "--table", market, "--owner", "ben"]);
    expect(mine).toMatchObject({ room, deal: recorded.seq });
    const text = await sides.ben.run(["market", "matches", "--table", market, "--owner", "ben"]);
    expect(text.stdout).toContain(`room ${room} deal recorded at #${recorded.seq}`);
    expect(
      (
        await ok("hana", [
          "market",
          "search",
          "--table",
          market,
          "--owner",
          "hana",
          "--q",
          "stroller",
          "--side",
          "offer",
        ])
      ).items,
    ).toEqual([]);
  });

  it("exports the market and the room, and trestle verify finds both CLEAN", async () => {
    for (const [who, table] of [
      ["hana", market],
      ["ana", room],
    ] as const) {
      const out = join(homes[who], `${table}.jsonl`);
      await ok(who, ["export", "--table", table, "--owner", who, "--out", out]);
      const verified = await sides[who].run(["verify", out]);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toMatch(/^CLEAN/);
    }
  });
});
