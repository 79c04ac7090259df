/**
 * A relay rolled back to an older copy of its storage and then forked, as an outsider would try
 * it: the real relay with its storage in a directory, stopped, restored from a copy taken earlier,
 * started again, and written past its old length by another client. Every command of the client
 * that held the newer head (read, tasks, watch, history, verify) must exit 4 and keep the honest
 * head it held, whether it is the first to notice or the evidence was kept by an earlier one
 * (docs/SPEC.md §8.3, issue 11).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { RolledBackRelay } from "../../support/rolled-back-relay.js";

const rig = new RolledBackRelay("rollback", 11);
const { table, honestHome, otherHome } = rig;
let honestHead: { seq: number; link: string };
let relayKey: string;

const seat = (name: string) => rig.seat(name);
const headFile = (home: string) => join(home, "heads", relayKey, `${table}.json`);

beforeAll(async () => {
  let url = await rig.restart();
  await rig.seatTwoOwners();
  relayKey = JSON.parse(readFileSync(join(honestHome, "pins.json"), "utf8")).relays[url].relay_key;

  // The older copy: the relay's storage, and a client home that saw no more than it.
  await rig.keepOldCopy();

  // The honest history goes on, with a task, and the honest client holds its head.
  url = await rig.restart();
  const t = cli(honestHome, url);
  expect((await t.run(["say", ...seat("sa"), "asking 3,600"])).code).toBe(0);
  expect(
    (await t.run(["propose", ...seat("sb"), "deliver on Saturday", "--effect", 'oa:calendar:book:{"day":"sat"}'])).code,
  ).toBe(0);
  expect((await t.run(["say", ...seat("sa"), "Saturday works"])).code).toBe(0);
  expect((await t.run(["history", "--table", table, "--owner", "oa"])).code).toBe(0);
  honestHead = JSON.parse(readFileSync(headFile(honestHome), "utf8"));

  // Rolled back to the older copy, then written past the old length by a client that never saw more.
  url = await rig.rollBack();
  const other = cli(otherHome, url);
  for (let i = 0; i < honestHead.seq; i += 1)
    expect((await other.run(["say", ...seat("sb"), `another history, turn ${i}`])).code).toBe(0);
}, 120_000);

afterAll(() => rig.dispose());

const commands: [string, string[]][] = [
  ["read", ["read", ...seat("sa")]],
  ["tasks", ["tasks", "--table", table, "--owner", "oa"]],
  ["watch", ["watch", ...seat("sa")]],
  ["history", ["history", "--table", table, "--owner", "oa"]],
  ["verify", ["verify", table, "--owner", "oa"]],
];

describe("when the relay was rolled back and then forked past the head a client held", () => {
  it.each(commands)(
    "`trestle %s` is the first to notice: exit 4, the honest head kept, the evidence kept",
    async (name, args) => {
      const home = rig.honestCopy(name);
      const run = await cli(home, rig.relay.url).run(args);
      expect(run.code).toBe(4);
      expect(JSON.parse(readFileSync(headFile(home), "utf8"))).toEqual(honestHead);
      const listed = await cli(home, rig.relay.url).json(["evidence", "--table", table]);
      expect(listed.code).toBe(4);
      expect(listed.body!.items[0].items[0].evidence).toMatchObject({ kind: "fork", table });
    },
  );

  it("every command keeps exiting 4 with the honest head in place, run after run, until the owner clears the evidence", async () => {
    const t = cli(honestHome, rig.relay.url);
    for (const [, args] of [...commands, ...commands]) {
      const run = await t.run(args);
      expect(run.code, `${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(4);
      expect(JSON.parse(readFileSync(headFile(honestHome), "utf8"))).toEqual(honestHead);
    }
    expect((await t.run(["say", ...seat("sa"), "still here?"])).code).toBe(4);
    expect((await t.run(["evidence", "--clear", "--table", table])).code).toBe(0);
    expect((await t.run(["history", "--table", table, "--owner", "oa"])).code).toBe(0);
  }, 60_000);
});
