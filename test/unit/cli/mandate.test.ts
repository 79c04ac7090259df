/**
 * `trestle mandate set` refuses a flag value it cannot sign as a usage error (exit 2, E_USAGE)
 * naming what is allowed, never an unexpected failure (E_BUG), and writes no mandate then
 * (docs/CLI.md "trestle mandate set"). No relay is needed: the mandate is signed on this machine.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";

const home = mkdtempSync(join(tmpdir(), "trestle-mandate-cli-"));
// Never contacted: mandate set reads no ledger.
const t = cli(home, "http://127.0.0.1:9");
const mandatePath = join(home, "mandates", "r-mandate", "s-bot.json");
const set = (...flags: string[]) =>
  t.run(["mandate", "set", "--table", "r-mandate", "--seat", "s-bot", "--owner", "sam", ...flags]);

beforeAll(async () => {
  expect((await t.run(["keygen", "--owner", "sam"])).code).toBe(0);
}, 60_000);

describe("when a mandate set flag has a value the mandate cannot hold", { timeout: 30_000 }, () => {
  it.each([
    [
      "a kind in capitals",
      ["--require-confirm", "ACCEPT"],
      /--require-confirm "ACCEPT" is not a kind; did you mean accept\? \(kinds: say, pass, .*accept.*\)/,
    ],
    [
      "a kind with spaces around it",
      ["--require-confirm", " accept "],
      /--require-confirm " accept " is not a kind; did you mean accept\?/,
    ],
    [
      "a word that is no kind",
      ["--require-confirm", "bogus"],
      /--require-confirm "bogus" is not a kind \(kinds: say, pass, raise_hand, .*mechanism, listing, unlist, bid\)/,
    ],
    ["an empty never_disclose string", ["--never-disclose", ""], /--never-disclose #1 is empty/],
    [
      "a never_disclose string of invisible characters only",
      ["--never-disclose", "\u200b\u200d"],
      /--never-disclose #1 is empty/,
    ],
    [
      "a never_disclose string with spaces around it",
      ["--never-disclose", "3000", "--never-disclose", " 2400 "],
      /--never-disclose #2 has spaces around it/,
    ],
    ["a never_disclose string over the limit", ["--never-disclose", "x".repeat(257)], /--never-disclose #1: .*256/],
    [
      "too many never_disclose strings",
      Array.from({ length: 65 }, (_, i) => ["--never-disclose", `s${i}`]).flat(),
      /--never-disclose: .*64/,
    ],
    [
      "a currency in lowercase",
      ["--currency", "twd", "--cap", "100"],
      /--currency "twd" is not an ISO 4217 code; did you mean TWD\?/,
    ],
    [
      "a currency that does not exist",
      ["--currency", "XYZ", "--cap", "100"],
      /--currency "XYZ" is not an ISO 4217 code \(such as TWD, USD, JPY\)/,
    ],
    [
      "a floor above the cap",
      ["--currency", "TWD", "--cap", "100", "--floor", "200"],
      /--floor 200 is above --cap 100/,
    ],
    ["an allowance without a cap", ["--allowance", "10000"], /--allowance needs --cap and --currency/],
    [
      "a limit on open commitments without an allowance",
      ["--currency", "TWD", "--cap", "100", "--allowance-open", "3"],
      /--allowance-open needs --allowance/,
    ],
    ["a market that is no table id", ["--market", "Parents Swap"], /--market "Parents Swap": /],
    [
      "a category that is no category name",
      ["--category", "Baby Gear"],
      /--category "Baby Gear": category: 1-32 of \[a-z0-9-\]/,
    ],
  ])("refuses %s as a usage error naming what is allowed", async (_, flags, message) => {
    const run = await set(...flags);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^error E_USAGE: /);
    expect(run.stderr).toMatch(message);
    expect(existsSync(mandatePath)).toBe(false);
  });

  it("never echoes a never_disclose string it refuses", async () => {
    const run = await set("--never-disclose", " 2400 ");
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).not.toContain("2400");
  });

  it("answers --json with the usage envelope", async () => {
    const run = await t.json([
      "mandate",
      "set",
      "--table",
      "r-mandate",
      "--seat",
      "s-bot",
      "--owner",
      "sam",
      "--require-confirm",
      "ACCEPT",
    ]);
    expect(run.code).toBe(2);
    expect(run.body).toMatchObject({
      error: { code: "E_USAGE", message: expect.stringContaining("did you mean accept?") },
    });
  });
});

describe("a mandate set with good values", () => {
  it("signs the kinds and strings as given, each once", async () => {
    const run = await set(
      "--require-confirm",
      "accept",
      "--require-confirm",
      "accept",
      "--never-disclose",
      "2400",
      "--never-disclose",
      "2400",
      "--never-disclose",
      "twenty-four hundred",
    );
    expect(run.code, run.stderr).toBe(0);
    const { mandate } = JSON.parse(readFileSync(mandatePath, "utf8"));
    expect(mandate.require_confirm).toEqual(["accept"]);
    expect(mandate.never_disclose).toEqual(["2400", "twenty-four hundred"]);
  });

  it("signs an allowance in the money's currency, and the markets and categories, each once", async () => {
    const run = await set(
      "--currency",
      "USD",
      "--cap",
      "6000",
      "--allowance",
      "10000",
      "--allowance-open",
      "4",
      "--market",
      "m-swap",
      "--market",
      "m-swap",
      "--category",
      "baby-gear",
      "--category",
      "books",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "allowance 100.00 USD across a market's rooms, at most 4 open; markets m-swap; categories baby-gear, books",
    );
    const { mandate } = JSON.parse(readFileSync(mandatePath, "utf8"));
    expect(mandate).toMatchObject({
      allowance: { currency: "USD", total: 10000, open: 4 },
      markets: ["m-swap"],
      categories: ["baby-gear", "books"],
    });
  });
});
