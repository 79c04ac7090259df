/**
 * An owner's allowance across a market's rooms from the command line (docs/MARKETS.md "An owner's
 * allowance"): ana signs one mandate for her market seat (a cap per commitment, an allowance of
 * 100.00 USD across the market's rooms, the market and the category she trades in), and every
 * match room she enters carries it. Ben and chen each sell her a stroller for 60.00 USD in their
 * match's room: her first accept goes out, her second is refused before signing, and `trestle
 * allowance show` says what is counted.
 */
import { mkdtempSync } from "node:fs";
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
const sides = {} as Record<Name, ReturnType<typeof cli>>;
const market = uniqueTable("m-allowance");

beforeAll(async () => {
  relay = await sharedRelay();
  for (const name of NAMES) sides[name] = cli(mkdtempSync(join(tmpdir(), `trestle-allowance-${name}-`)), relay.url);
}, 60_000);

/** Runs `args` as `who` and expects exit 0; returns the JSON it printed. */
async function ok(who: Name, args: string[]): Promise<any> {
  const run = await sides[who].json(args);
  expect(run.code, `${who}: trestle ${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0);
  return run.body;
}

describe("an allowance across a market's rooms, from the command line", { timeout: 120_000 }, () => {
  it("carries the market seat's allowance into every match room, and refuses the accept that would pass it", async () => {
    await openCliMarket(ok, market, ["ana", "ben", "chen"]);
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
      "USD",
      "--cap",
      "8000",
      "--allowance",
      "10000",
      "--market",
      market,
      "--category",
      "baby-gear",
    ]);
    for (const seller of ["ben", "chen"] as const) {
      await ok(seller, [
        "mandate",
        "set",
        "--table",
        market,
        "--seat",
        `${seller}-bot`,
        "--owner",
        seller,
        "--currency",
        "USD",
        "--cap",
        "8000",
      ]);
      await ok(seller, [
        "market",
        "list",
        "--table",
        market,
        "--seat",
        `${seller}-bot`,
        "--side",
        "offer",
        "--title",
        `Stroller of ${seller}`,
        "--category",
        "baby-gear",
      ]);
    }
    const wanted = await ok("ana", [
      "market",
      "list",
      "--table",
      market,
      "--seat",
      "ana-bot",
      "--side",
      "want",
      "--title",
      "Stroller wanted",
      "--category",
      "baby-gear",
      "--quantity",
      "2",
    ]);
    expect(wanted.matches).toHaveLength(2);

    const offers: { room: string; offer: string }[] = [];
    for (const seller of ["ben", "chen"] as const) {
      const [match] = await ok(seller, ["market", "matches", "--table", market, "--owner", seller]);
      const { room } = await ok(seller, ["market", "room", String(match.seq), "--table", market, "--owner", seller]);
      expect(await ok("ana", ["market", "room", String(match.seq), "--table", market, "--owner", "ana"])).toMatchObject(
        { how: "joined", room, mandate: "carried" },
      );
      await ok(seller, [
        "room",
        "offer",
        "--table",
        room,
        "--seat",
        `${seller}-bot`,
        "--amount",
        "6000",
        "--currency",
        "USD",
      ]);
      const shown = await ok("ana", ["room", "show", "--table", room, "--seat", "ana-bot"]);
      offers.push({ room, offer: String(shown.offers.at(-1).seq) });
    }

    await ok("ana", ["room", "accept", offers[0]!.offer, "--table", offers[0]!.room, "--seat", "ana-bot"]);
    const second = await sides.ana.run([
      "room",
      "accept",
      offers[1]!.offer,
      "--table",
      offers[1]!.room,
      "--seat",
      "ana-bot",
    ]);
    expect(second.code, second.stdout + second.stderr).toBe(3);
    expect(second.stderr).toMatch(
      /E_MANDATE.*6000 USD \(minor units\) would bring what the owner spent and holds reserved across market .* to 120\.00 USD .*past their allowance of 100\.00 USD/,
    );
    const shown = await sides.ana.run(["allowance", "show", "--owner", "ana", "--market", market]);
    expect(shown.stdout).toContain(`ana in market ${market}: spent 0.00 USD, reserved 60.00 USD, 1 open`);
  });
});
