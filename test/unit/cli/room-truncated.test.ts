/**
 * A room on a relay rolled back to an older copy of its storage (a truncation: nothing written
 * past the old length), as an outsider would try it (issue 34): the room write that is the first
 * command to meet the truncated relay exits 4 (E_FORK, the evidence kept) exactly as every later
 * command does, not 3 (E_GATE) because the guards refused an unverified transcript.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { RolledBackRelay } from "../../support/rolled-back-relay.js";

const rig = new RolledBackRelay("room-truncated", 34);
const { table, honestHome } = rig;
let offer = 0;
let honestHead: { seq: number; link: string };
const headFile = (home: string) => {
  const relayKey = JSON.parse(readFileSync(join(home, "pins.json"), "utf8")).relays[rig.relay.url].relay_key as string;
  return join(home, "heads", relayKey, `${table}.json`);
};

beforeAll(async () => {
  // In the honest home: oa's room with seat sa, ob's seat sb joined by invite, and sa's first line.
  const before = cli(honestHome, await rig.restart());
  for (const owner of ["oa", "ob"]) expect((await before.run(["keygen", "--owner", owner])).code).toBe(0);
  expect(
    (await before.run(["room", "create", "--table", table, "--topic", "a stroller, second hand", "--owner", "oa"]))
      .code,
  ).toBe(0);
  expect((await before.run(["join", ...rig.seat("sa"), "--owner", "oa"])).code).toBe(0);
  const invite = await before.json(["room", "invite", "--table", table, "--owner", "oa", "--ttl", "2h"]);
  expect((await before.run(["room", "join", invite.body!.link, "--owner", "ob", "--seat", "sb"])).code).toBe(0);
  expect((await before.run(["say", ...rig.seat("sa"), "the old copy ends here"])).code).toBe(0);
  await rig.keepOldCopy();

  // The honest history goes on past the older copy: sa's offer, and the honest client holds its head.
  const t = cli(honestHome, await rig.restart());
  expect(
    (
      await t.run([
        "mandate",
        "set",
        ...rig.seat("sa"),
        "--owner",
        "oa",
        "--currency",
        "TWD",
        "--cap",
        "400000",
        "--floor",
        "240000",
      ])
    ).code,
  ).toBe(0);
  const offered = await t.json([
    "room",
    "offer",
    ...rig.seat("sa"),
    "--amount",
    "300000",
    "--currency",
    "TWD",
    "--text",
    "a stroller",
  ]);
  expect(offered.code).toBe(0);
  offer = offered.body!.seq;
  expect((await t.run(["say", ...rig.seat("sb"), "let me think"])).code).toBe(0);
  expect((await t.run(["history", "--table", table, "--owner", "ob"])).code).toBe(0);
  honestHead = JSON.parse(readFileSync(headFile(honestHome), "utf8"));

  // Rolled back to the older copy, and nothing written since: the relay serves a prefix.
  await rig.rollBack();
}, 120_000);

afterAll(() => rig.dispose());

describe("when the relay was rolled back to a prefix of the room a client saw", () => {
  it.each([
    ["accept", () => ["room", "accept", String(offer), ...rig.seat("sb")]],
    ["offer", () => ["room", "offer", ...rig.seat("sb"), "--amount", "250000", "--currency", "TWD"]],
  ])(
    "`trestle room %s` is the first to notice: exit 4 with the truncation, as every later command, the honest head kept",
    async (name, args) => {
      const home = rig.honestCopy(name);
      const first = await cli(home, rig.relay.url).json(args());
      expect(first.code, JSON.stringify(first.body)).toBe(4);
      expect(first.body!.error).toMatchObject({ code: "E_FORK", details: { evidence: { kind: "truncation", table } } });
      const again = await cli(home, rig.relay.url).json(args());
      expect(again.code).toBe(4);
      expect(again.body!.error.code).toBe("E_FORK");
      expect(JSON.parse(readFileSync(headFile(home), "utf8"))).toEqual(honestHead);
    },
  );
});
