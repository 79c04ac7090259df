/**
 * The CLI at a relay with its operator limits on: a write over the seat's rate is waited out with a
 * note on stderr and lands; `trestle delete` deletes only with --yes, a `trestle watch` open on the
 * table then ends at once with E_TABLE_DELETED, and the table's id answers E_TABLE_DELETED (exit 3)
 * with a hint.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { cli } from "../../support/cli.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { limitSettings } from "../../support/limits-env.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { beforeTimer } from "../../support/order.js";

const WRITES = 20;
let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;
const table = uniqueTable("cli-limits");

beforeAll(async () => {
  relay = await startRelay({ vars: limitSettings({ seat_writes_per_min: WRITES }) });
  home = mkdtempSync(join(tmpdir(), "trestle-cli-limits-"));
  t = cli(home, relay.url);
  expect((await t.run(["keygen", "--owner", "ops"])).code).toBe(0);
  const key = JSON.parse(readFileSync(join(home, "owners", "ops.json"), "utf8")).public_key as string;
  const config = {
    id: table,
    topic: "limits",
    owners: { ops: { public_key: key } },
    seats: { bot: { owner: "ops" } },
    topology: { kind: "open" },
    termination: { any: ["decision"] },
  };
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  expect((await t.run(["create", join(home, "config.json"), "--owner", "ops"])).code).toBe(0);
  expect((await t.run(["join", "--table", table, "--seat", "bot", "--owner", "ops"])).code).toBe(0);
}, 60_000);
afterAll(() => relay?.dispose());

describe("a write over the seat's rate", () => {
  it("is waited out with a note on stderr, then lands", async () => {
    const seat = await readKeyFile(seatKeyPath(home, "bot"), "seat");
    const client = await tableClient(relay.url, table);
    await Promise.all(
      Array.from({ length: WRITES }, (_, i) => client.submit(seat.signer, "bot", { kind: "say", body: `entry ${i}` })),
    );
    const run = await t.run(["say", "--table", table, "--seat", "bot", "after the wait"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /the relay is rate limiting POST \/tables\/[^ ]+\/entries; waiting \d+ s, then sending it again \(a signed write is never applied twice\)/,
    );
    expect(run.stdout).toMatch(/say written as entry #\d+/);
  });
});

describe("trestle delete", () => {
  it("refuses without --yes (exit 2) and leaves the table", async () => {
    const run = await t.run(["delete", "--table", table, "--owner", "ops"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("pass --yes");
    expect((await t.run(["read", "--table", table, "--seat", "bot"])).code).toBe(0);
  });

  it("deletes the table with --yes: a watch open on it ends at once (exit 3), and its id answers E_TABLE_DELETED with a hint", async () => {
    const watching = t.start(["watch", "--table", table, "--seat", "bot"]);
    await watching.printed(/watching /);
    const run = await t.json(["delete", "--table", table, "--owner", "ops", "--yes"]);
    expect(run.code).toBe(0);
    expect(run.body).toMatchObject({ table, reason: "owner", owner: "ops", deleted_at: expect.any(Number) });
    // At once: before a timer started once the delete has answered and running far longer than a close takes.
    expect(await beforeTimer(watching.done, 5_000)).toBe("event");
    const watched = await watching.done;
    expect(watched.code).toBe(3);
    expect(watched.stderr).toContain("error E_TABLE_DELETED");
    const read = await t.run(["read", "--table", table, "--seat", "bot"]);
    expect(read.code).toBe(3);
    expect(read.stderr).toContain("error E_TABLE_DELETED");
    expect(read.stderr).toContain("its id is never used again");
  });
});
