/**
 * `trestle room auction --currency` (docs/CLI.md "room auction") takes the currency as the other
 * room verbs do (src/cli/currency-flag.ts): exactly an ISO 4217 code, anything else a usage error
 * (exit 2) naming the code it probably meant, before anything is signed or sent.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
let sara: ReturnType<typeof cli>;
const table = uniqueTable("r-auction-cur");
const as = ["--table", table, "--seat", "sara-bot"];

beforeAll(async () => {
  relay = await sharedRelay();
  sara = cli(mkdtempSync(join(tmpdir(), "trestle-sara-")), relay.url);
  expect((await sara.run(["keygen", "--owner", "sara"])).code).toBe(0);
  expect(
    (await sara.run(["room", "create", "--table", table, "--topic", "A second-hand stroller", "--owner", "sara"])).code,
  ).toBe(0);
  expect((await sara.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
}, 60_000);
afterAll(() => relay?.dispose());

/** How many auctions `room show` lists for the room. */
async function auctions(): Promise<number> {
  const { body } = await sara.json(["room", "show", ...as]);
  return (body!.auctions as unknown[]).length;
}

describe("when room auction's --currency is not an ISO 4217 code as written", { timeout: 60_000 }, () => {
  it.each([
    ["in lower case", ["--currency", "usd"], /--currency "usd" is not an ISO 4217 code; did you mean USD\?/],
    ["unknown", ["--currency", "XYZ"], /--currency "XYZ" is not an ISO 4217 code \(such as TWD, USD, JPY\)/],
    ["missing", [], /--currency is required/],
  ])("refuses a currency %s as a usage error (exit 2), sending nothing", async (_, currency, message) => {
    const run = await sara.run(["room", "auction", ...as, "--buyer", "ben-bot", "--seller", "sara-bot", ...currency]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(await auctions()).toBe(0);
  });
});
