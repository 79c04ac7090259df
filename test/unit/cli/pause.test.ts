/**
 * The owner's own brake from the command line (docs/SPEC.md §5.5, docs/CLI.md `trestle pause`,
 * `trestle resume`), against a real local relay: each owner puts on and lifts their own pause with
 * the owner key, the pauses in force are printed after each, and every refusal is the relay's own
 * code with exit 3 and the ledger head unchanged.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, ownerKeyPath, seatKeyPath, type TableClient } from "../../../src/client/node.js";
import { sha256, utf8 } from "../../../src/protocol/index.js";
import { cli, refusedRun } from "../../support/cli.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
let t: ReturnType<typeof cli>;

beforeAll(async () => {
  relay = await sharedRelay();
  const home = mkdtempSync(join(tmpdir(), "trestle-cli-pause-"));
  t = cli(home, relay.url);
  // The cast's keys (test/support/table-fixture.ts) as this home's key files.
  for (const owner of ["tao", "jenny", "ops"])
    await createKeyFile(ownerKeyPath(home, owner), "owner", owner, { seed: sha256(utf8(`owner:${owner}`)) });
  await createKeyFile(seatKeyPath(home, "bot-tao"), "seat", "bot-tao", { seed: sha256(utf8("seat:bot-tao")) });
}, 60_000);

/** A seated debate table (owners tao, jenny and ops, each with a seat). */
async function seated(prefix: string): Promise<{ client: TableClient; table: string }> {
  const table = uniqueTable(prefix);
  const client = await tableClient(relay.url, table);
  await seatDebate(client);
  return { client, table };
}

describe("pausing and resuming from the command line", () => {
  it("puts each owner's own pause on and lifts it, naming every pause in force after each", async () => {
    const { table } = await seated("cli-brake");
    const as = (owner: string) => ["--table", table, "--owner", owner];

    const tao = await t.run(["pause", ...as("tao")]);
    expect(tao.code).toBe(0);
    const first = Number(/^tao paused \S+ with the owner key as entry #(\d+) \(head #\d+/.exec(tao.stdout)![1]);
    expect(tao.stdout).toContain(
      `paused by tao (owner key, entry ${first}): no seat writes until each of them lifts their own pause`,
    );

    const jenny = await t.json(["pause", ...as("jenny")]);
    expect(jenny.code).toBe(0);
    const second = jenny.body!.seq as number;
    expect(jenny.body).toMatchObject({
      table,
      owner: "jenny",
      action: "pause",
      head: { seq: second },
      pauses: [
        { owner: "tao", via: "owner", seq: first },
        { owner: "jenny", via: "owner", seq: second },
      ],
    });
    const refusedWrite = await t.json(["say", "--table", table, "--seat", "bot-tao", "still talking"]);
    expect(refusedWrite.body).toMatchObject({ error: { code: "E_PAUSED" } });

    const lifted = await t.run(["resume", ...as("tao")]);
    expect(lifted.code).toBe(0);
    expect(lifted.stdout).toMatch(/^tao lifted their own pause on \S+ with the owner key as entry #\d+/);
    expect(lifted.stdout).toContain(`paused by jenny (owner key, entry ${second}): no seat writes`);

    const last = await t.run(["resume", ...as("jenny")]);
    expect(last.stdout).toContain("no pause holds: the table takes writes");
    const open = await t.run(["say", "--table", table, "--seat", "bot-tao", "back to it"]);
    expect(open.code).toBe(0);
  }, 30_000);

  describe("when the owner holds no pause to lift, or one already", () => {
    it("refuses a resume while only another owner's pause holds (E_FORBIDDEN, naming the holder), and the pause holds", async () => {
      const { client, table } = await seated("cli-brake-other");
      const paused = await t.json(["pause", "--table", table, "--owner", "jenny"]);
      const error = await refusedRun(t, "E_FORBIDDEN", ["resume", "--table", table, "--owner", "tao"], client);
      expect(error.message).toContain(`the table is paused by jenny (owner key, entry ${paused.body!.seq})`);
      expect(error.details).toMatchObject({ pauses: [{ owner: "jenny", via: "owner", seq: paused.body!.seq }] });
      await refusedRun(t, "E_PAUSED", ["say", "--table", table, "--seat", "bot-tao", "lifted?"], client);
    }, 15_000);

    it("refuses a resume where nothing is paused, and a second pause by the same owner (E_NOT_ALLOWED)", async () => {
      const { client, table } = await seated("cli-brake-twice");
      await refusedRun(t, "E_NOT_ALLOWED", ["resume", "--table", table, "--owner", "tao"], client);
      expect((await t.run(["pause", "--table", table, "--owner", "tao"])).code).toBe(0);
      const again = await refusedRun(t, "E_NOT_ALLOWED", ["pause", "--table", table, "--owner", "tao"], client);
      expect(again.message).toContain("tao already holds a pause here");
    }, 15_000);
  });
});
