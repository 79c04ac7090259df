/**
 * `trestle request`, `respond` and `subtable` end to end: the CLI run in this process against a real
 * local relay (test/support/cli.ts). A request is answered (its type read from the history), a shutdown approved takes
 * the seat off the table (and ends its live watch for good), and a sub-table opened from the command line reports its result to the
 * parent; each refusal exits with its documented code and a hint, and moves no head.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { refused } from "../../support/refused.js";

let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;
const table = uniqueTable("cli-req");
const child = uniqueTable("cli-sub");

const seat = (name: string) => ["--table", table, "--seat", name];
const key = (owner: string) =>
  JSON.parse(readFileSync(join(home, "owners", `${owner}.json`), "utf8")).public_key as string;
const owners = () => ({
  tao: { public_key: key("tao") },
  jenny: { public_key: key("jenny") },
  ops: { public_key: key("ops") },
});

/** The table's head seq as owner ops reads it. */
async function headSeq(id = table): Promise<number> {
  const run = await t.json(["history", "--table", id, "--owner", "ops"]);
  expect(run.code).toBe(0);
  return run.body!.head.seq as number;
}

beforeAll(async () => {
  relay = await sharedRelay();
  home = mkdtempSync(join(tmpdir(), "trestle-cli-req-"));
  t = cli(home, relay.url);
  for (const owner of ["ops", "tao", "jenny"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
  const config = {
    id: table,
    topic: "Who ships the release?",
    owners: owners(),
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" }, judge: { owner: "ops" } },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 2 },
    termination: { any: ["decision", "rounds_exhausted"] },
  };
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  expect((await t.run(["create", join(home, "config.json"), "--owner", "ops"])).code).toBe(0);
  for (const [owner, name] of [
    ["tao", "bot-tao"],
    ["jenny", "bot-jenny"],
    ["ops", "judge"],
  ] as const) {
    expect((await t.run(["join", ...seat(name), "--owner", owner])).code).toBe(0);
  }
}, 60_000);

describe("trestle request and respond", () => {
  it("opens a request with a fresh id and answers it, the type read from the history", async () => {
    const asked = await t.json(["request", "review", "please check the plan", ...seat("bot-tao"), "--to", "bot-jenny"]);
    expect(asked.code).toBe(0);
    expect(asked.body).toMatchObject({
      seq: expect.any(Number),
      request_id: expect.stringMatching(/^req-[A-Za-z0-9_-]{12}$/),
    });
    const id = asked.body!.request_id as string;
    const answered = await t.run(["respond", id, "looks fine", ...seat("bot-jenny")]);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toMatch(
      new RegExp(`^response to ${id} \\(review\\) written as entry #${asked.body!.seq + 1} `, "m"),
    );
    const history = await t.json(["history", "--table", table, "--owner", "ops"]);
    const kinds = (history.body!.items as { kind?: string; request_id?: string; type?: string }[]).filter(
      (e) => e.request_id === id,
    );
    expect(kinds.map((e) => [e.kind, e.type])).toEqual([
      ["request", "review"],
      ["response", "review"],
    ]);
  });

  it("takes a seat off the table when it approves its own shutdown, and its watch ends with E_UNKNOWN_SEAT instead of reconnecting", async () => {
    const watching = t.start(["watch", ...seat("bot-jenny")]);
    await watching.printed(/watching .* as bot-jenny/);
    const asked = await t.run([
      "request",
      "shutdown",
      "you are done",
      ...seat("judge"),
      "--to",
      "bot-jenny",
      "--id",
      "stop-jenny",
    ]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^request stop-jenny \(shutdown\) written as entry #\d+/m);
    const answered = await t.json(["respond", "stop-jenny", ...seat("bot-jenny"), "--verdict", "approve"]);
    expect(answered.code).toBe(0);
    expect(answered.body).toMatchObject({ request_id: "stop-jenny", type: "shutdown" });
    const history = await t.json(["history", "--table", table, "--owner", "ops"]);
    expect(history.body!.items.at(-1)).toMatchObject({
      kind: "system",
      subkind: "seat_left",
      data: { seat: "bot-jenny", reason: "shutdown" },
    });
    await refused("E_UNKNOWN_SEAT", () => t.run(["say", ...seat("bot-jenny"), "still here?"]), { exit: 3 });
    const watched = await watching.done;
    await refused("E_UNKNOWN_SEAT", () => watching.done, { exit: 3 });
    expect(watched.stdout).toMatch(/bot-jenny left \(shutdown\)/);
    expect(watched.stderr).not.toContain("reconnecting");
    // Six CLI processes one after another: on a loaded machine that passes the default 5 s.
  }, 30_000);

  describe("when the request or the answer is refused", () => {
    it("exits 3 with E_UNKNOWN_REQUEST for a request nobody made", async () => {
      await refused(
        "E_UNKNOWN_REQUEST",
        () => t.run(["respond", "no-such-request", ...seat("bot-tao"), "--verdict", "approve"]),
        { exit: 3, unmoved: headSeq },
      );
    });

    it("exits 3 with E_FORBIDDEN when a seat the request is not addressed to answers", async () => {
      expect(
        (await t.run(["request", "review", "tao only", ...seat("judge"), "--to", "bot-tao", "--id", "for-tao"])).code,
      ).toBe(0);
      await refused("E_FORBIDDEN", () => t.run(["respond", "for-tao", ...seat("judge"), "--type", "review"]), {
        exit: 3,
        unmoved: headSeq,
      });
    });

    it("exits 3 with E_ALREADY_RESOLVED for a second answer", async () => {
      expect((await t.run(["respond", "for-tao", "done", ...seat("bot-tao")])).code).toBe(0);
      await refused("E_ALREADY_RESOLVED", () => t.json(["respond", "for-tao", "again", ...seat("bot-tao")]), {
        exit: 3,
        unmoved: headSeq,
      });
    });

    it("exits 3 with E_SCHEMA for a request type the protocol does not allow", async () => {
      await refused("E_SCHEMA", () => t.run(["request", "Not A Type", ...seat("bot-tao")]), {
        exit: 3,
        unmoved: headSeq,
      });
    });

    it.each([
      ["a shutdown answer without --verdict", ["respond", "anything", "--type", "shutdown"]],
      ["a verdict that is neither approve nor reject", ["respond", "anything", "--verdict", "maybe"]],
      ["a request without a type", ["request"]],
    ])("exits 2 for %s", async (_, args) => {
      const run = await t.run([...args, ...seat("bot-tao")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error E_USAGE: /m);
    });
  });
});

describe("trestle subtable", () => {
  const subConfig = (extra: Record<string, unknown> = {}) => ({
    id: child,
    topic: "tao and the judge settle the date",
    owners: owners(),
    seats: { "bot-tao": { owner: "tao" }, judge: { owner: "ops" } },
    topology: { kind: "pipeline", stages: ["bot-tao", "judge"] },
    termination: { any: ["decision", "rounds_exhausted"] },
    ...extra,
  });

  it("opens a sub-table whose seats need no join, and its decision lands at the parent when it closes", async () => {
    writeFileSync(join(home, "sub.json"), JSON.stringify(subConfig()));
    const opened = await t.json(["subtable", join(home, "sub.json"), ...seat("bot-tao")]);
    expect(opened.code, JSON.stringify(opened.body)).toBe(0);
    expect(opened.body).toMatchObject({
      table: child,
      parent: table,
      opener: "bot-tao",
      head: { seq: expect.any(Number) },
    });
    const said = await t.run(["say", "--table", child, "--seat", "bot-tao", "--to", "judge", "Friday works"]);
    expect(said.code, said.stderr).toBe(0);
    const decided = await t.run(["decide", "--table", child, "--seat", "judge", "ship Friday"]);
    expect(decided.code, decided.stderr).toBe(0);
    const parent = await t.json(["history", "--table", table, "--owner", "ops"]);
    const subkinds = (parent.body!.items as { subkind?: string }[]).map((e) => e.subkind).filter(Boolean);
    expect(subkinds).toEqual(expect.arrayContaining(["subtable_opened", "subtable_result"]));
    expect(parent.body!.items.at(-1)).toMatchObject({
      subkind: "subtable_result",
      data: { table: child, decision: { body: "ship Friday" } },
    });
    const verified = await t.run(["verify", child, "--owner", "ops"]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("CLEAN");
  });

  describe("when the sub-table cannot be opened", () => {
    it("exits 2 when the config names another parent than --table", async () => {
      writeFileSync(
        join(home, "other.json"),
        JSON.stringify(subConfig({ id: `${child}-x`, parent: "some-other-table" })),
      );
      const run = await t.run(["subtable", join(home, "other.json"), ...seat("bot-tao")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error E_USAGE: .*some-other-table/m);
    });

    it("exits 3 with E_UNKNOWN_SEAT when a seat of the sub-table is not at the parent, and the parent's head does not move", async () => {
      writeFileSync(
        join(home, "stranger.json"),
        JSON.stringify(
          subConfig({ id: `${child}-y`, seats: { "bot-tao": { owner: "tao" }, stranger: { owner: "ops" } } }),
        ),
      );
      const before = await headSeq();
      const run = await t.run(["subtable", join(home, "stranger.json"), ...seat("bot-tao")]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^hint: /m);
      expect(await headSeq()).toBe(before);
    });
  });
});
