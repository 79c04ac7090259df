/**
 * The `trestle` CLI end to end against a real local relay, from key generation through a whole
 * debate to verifying the export, plus each documented exit code. Commands run in this process
 * (test/support/cli.ts); stdin piping, a live watch, verify and each exit code of "trestle errors"
 * go through a real `node bin/trestle.mjs` process (decision 0389).
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isForkProof, toBase64url } from "../../../src/protocol/index.js";
import { cli, spawnedCli, type CliRun } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";

// Two relays with one key: the same operator able to serve two histories of one table.
const SEED = toBase64url(new Uint8Array(32).fill(9));
let relay: LocalRelay;
let twin: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;
/** The same home and relay, each command a real process. */
let p: ReturnType<typeof spawnedCli>;
const table = uniqueTable("cli");
let exportPath: string;

beforeAll(async () => {
  [relay, twin] = await Promise.all([startRelay({ signingKey: SEED }), startRelay({ signingKey: SEED })]);
  home = mkdtempSync(join(tmpdir(), "trestle-cli-"));
  t = cli(home, relay.url);
  p = spawnedCli(home, relay.url);
}, 60_000);
afterAll(() => Promise.all([relay?.dispose(), twin?.dispose()]));

/** No stack trace, ever: no "    at f (file:line)" lines. */
function expectNoStack(run: CliRun): void {
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at .+:\d+/m);
}

const seat = (name: string) => ["--table", table, "--seat", name];

// A fresh relay starts its objects on the first write, and each spawned command starts Node and loads the bundle: a slow machine is not a failure.
describe("trestle, a whole table from the command line", { timeout: 30_000 }, () => {
  it("generates owner keys with mode 0600 and prints their public keys", async () => {
    for (const owner of ["ops", "tao", "jenny"]) {
      const { code, body } = await t.json(["keygen", "--owner", owner]);
      expect(code).toBe(0);
      expect(body).toMatchObject({
        role: "owner",
        name: owner,
        public_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
    }
  });

  it("creates a table from a config file, pinning the relay on first use", async () => {
    const key = (owner: string) =>
      JSON.parse(readFileSync(join(home, "owners", `${owner}.json`), "utf8")).public_key as string;
    const config = {
      id: table,
      topic: "Should #459 ship before #461?",
      owners: { tao: { public_key: key("tao") }, jenny: { public_key: key("jenny") }, ops: { public_key: key("ops") } },
      seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" }, judge: { owner: "ops" } },
      topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
      termination: { any: ["decision", "rounds_exhausted"] },
    };
    writeFileSync(join(home, "config.json"), JSON.stringify(config));
    const run = await t.run(["create", join(home, "config.json"), "--owner", "ops"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`created table ${table}`);
    expect(run.stderr).toContain("pinned relay");
    expect(JSON.parse(readFileSync(join(home, "pins.json"), "utf8")).relays[relay.url].relay_key).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it("seats each bot, creating its seat key on the way", async () => {
    for (const [owner, name] of [
      ["tao", "bot-tao"],
      ["jenny", "bot-jenny"],
      ["ops", "judge"],
    ]) {
      const run = await t.run(["join", ...seat(name!), "--owner", owner!, "--summary", `${name} for ${owner}`]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${name} joined ${table}`);
    }
  });

  it("writes turns, from an argument and from stdin", async () => {
    const said = await t.json(["say", ...seat("bot-tao"), "ship #459 first: it unblocks the release"]);
    expect(said.code).toBe(0);
    expect(said.body).toMatchObject({ seq: expect.any(Number), truncated: false });
    const hand = await t.run(["raise-hand", ...seat("bot-tao"), "one more point"]);
    expect(hand.code).toBe(0);
    expect(hand.stdout).toMatch(/raise_hand written as entry #\d+/);
    const piped = await p.run(["say", ...seat("bot-jenny"), "-", "--re", String(said.body!.seq)], {
      input: "no: #461 fixes the data loss\n",
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/say written as entry #\d+/);
    const proposed = await t.run([
      "propose",
      ...seat("bot-tao"),
      "ship both, #461 first",
      "--to",
      "judge",
      "--ref",
      `entry:${said.body!.seq}`,
    ]);
    expect(proposed.code).toBe(0);
  });

  it("refuses a turn out of order with the relay's code and the holder (exit 3)", async () => {
    const run = await t.json(["pass", ...seat("bot-jenny")]);
    expect(run.code).toBe(3);
    expect(run.body).toMatchObject({ error: { code: "E_NOT_FLOOR", details: { holder: "judge" } } });
  });

  it("reads the judge's projection", async () => {
    const { code, body } = await t.json(["read", ...seat("judge")]);
    expect(code).toBe(0);
    expect(body!.floor).toMatchObject({ holder: "judge", yours: true });
    expect(body!.tail.map((e: { body?: string }) => e.body).filter(Boolean)).toContain("no: #461 fixes the data loss");
  });

  it("watches live over WebSocket until the judge decides and the table closes", async () => {
    const watching = p.run(["watch", ...seat("bot-tao")]);
    const decided = await t.run(["decide", ...seat("judge"), "ship #461 first"]);
    expect(decided.code).toBe(0);
    const watched = await watching;
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(/\[#\d+\] judge decision: ship #461 first/);
    expect(watched.stdout).toMatch(/table closed \(decision\)/);
    expect(watched.stdout).not.toMatch(/\u001b\[/);
  });

  it("prints the verified history", async () => {
    const run = await t.run(["history", "--table", table, "--owner", "ops"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\[#1\] table opened by ops/);
    expect(run.stdout).toMatch(/bot-tao say: ship #459 first/);
    expect(run.stdout).toContain("chain verified up to the relay's signed head");
  });

  it("exports the table and verifies it CLEAN, as a file and as a table", async () => {
    exportPath = join(home, "export.jsonl");
    const exported = await t.run(["export", "--table", table, "--owner", "ops", "--out", exportPath]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("CLEAN");
    const file = await t.run(["verify", exportPath]);
    expect(file.code).toBe(0);
    expect(file.stdout).toMatch(/^CLEAN/);
    expect(file.stdout).toContain("relay key pinned");
    const live = await t.json(["verify", table, "--owner", "ops"]);
    expect(live.code).toBe(0);
    expect(live.body).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full", relay_key_pinned: true } });
  });

  describe("when the export was tampered with", () => {
    it("answers REFUTED with exit code 4 and names the entry", async () => {
      const tampered = join(home, "tampered.jsonl");
      writeFileSync(tampered, readFileSync(exportPath, "utf8").replace("ship #461 first", "ship #459 first"));
      const run = await t.run(["verify", tampered]);
      expect(run.code).toBe(4);
      expect(run.stdout).toMatch(/^REFUTED/);
      expect(run.stdout).toMatch(/refuted at entry #\d+: content does not match its leaf hash/);
      expectNoStack(run);
    });
  });

  describe("when a relay with the pinned key later serves the table rolled back", () => {
    it("catches it from the head this home kept, with exit code 4 and the signed heads as evidence", async () => {
      // The twin opens the table afresh and answers with its head at entry 1, as its current head.
      const run = await t.json(["create", join(home, "config.json"), "--owner", "ops", "--relay", twin.url]);
      expect(run.code).toBe(4);
      const evidence = run.body!.error.details.evidence;
      expect(evidence).toMatchObject({ kind: "truncation", table, seq: 1 });
      expect(evidence.heads[0].seq).toBeGreaterThan(1);
      expect(isForkProof(evidence.heads[0], evidence.heads[1])).toBe(false);
    });

    it("keeps reporting it on every command, even against a relay that now serves the whole table, until the owner clears it", async () => {
      const history = await t.run(["history", "--table", table, "--owner", "ops"]);
      expect(history.code).toBe(4);
      expect(history.stderr).toMatch(/^error E_FORK: truncation/m);
      expect(history.stderr).toContain("trestle evidence --clear");
      const listed = await t.json(["evidence"]);
      expect(listed.code).toBe(4);
      expect(listed.body!.items).toEqual([
        expect.objectContaining({
          table,
          items: [expect.objectContaining({ evidence: expect.objectContaining({ kind: "truncation" }) })],
        }),
      ]);
      const file = await t.run(["verify", exportPath]);
      expect(file.code).toBe(4);
      expect(file.stdout).toMatch(/^REFUTED/);
      expect(file.stdout).toContain("keeps evidence that the relay misbehaved");
      expect((await t.run(["verify", table, "--owner", "ops"])).code).toBe(4);
      const cleared = await t.run(["evidence", "--clear", "--table", table]);
      expect(cleared.code).toBe(0);
      expect(cleared.stdout).toMatch(/set aside 1 piece\(s\) of evidence/);
      expect((await t.run(["history", "--table", table, "--owner", "ops"])).code).toBe(0);
      expect((await t.run(["evidence"])).code).toBe(0);
      // Eight commands in one test: a slow machine is not a failure.
    }, 30_000);
  });

  describe("when the relay key is not pinned", () => {
    it("answers INCONCLUSIVE with exit code 5", async () => {
      const stranger = cli(mkdtempSync(join(tmpdir(), "trestle-cli-other-")), relay.url);
      const run = await stranger.json(["verify", exportPath]);
      expect(run.code).toBe(5);
      expect(run.body).toMatchObject({ verdict: "INCONCLUSIVE", coverage: { relay_key_pinned: false } });
    });
  });
});

describe("trestle errors", { timeout: 30_000 }, () => {
  it("shows the relay's code and a hint, never a stack trace, with exit code 3", async () => {
    const run = await p.run(["say", ...seat("bot-jenny"), "after the end"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error E_CLOSED: /m);
    expect(run.stderr).toMatch(/^hint: /m);
    expectNoStack(run);
  });

  it("prints the error envelope with a hint under --json", async () => {
    const run = await p.json(["say", ...seat("bot-jenny"), "after the end"]);
    expect(run.code).toBe(3);
    expect(run.body).toMatchObject({ error: { code: "E_CLOSED", hint: expect.any(String) } });
  });

  it.each([
    ["an unknown command", ["frobnicate"]],
    ["an unknown flag", ["say", "--table", "x", "--bogus", "hi"]],
    ["a missing required flag", ["say", "hello"]],
    ["a missing argument", ["create"]],
    ["an unreadable config", ["create", "/nonexistent/config.json"]],
  ])("exits 2 for %s", async (_, args) => {
    const run = await p.run(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error E_USAGE: /m);
    expectNoStack(run);
  });

  it("exits 3 with E_TABLE_NOT_FOUND when watching a table the relay does not have", async () => {
    const run = await p.run(["watch", "--table", "no-such-table", "--seat", "judge"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error E_TABLE_NOT_FOUND: /m);
  });

  it("exits 6 when the relay cannot be reached", async () => {
    const run = await p.run(["read", ...seat("judge"), "--relay", "http://127.0.0.1:9"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/^error E_NETWORK: /m);
  });

  it("exits 7 for a key file others can read", async () => {
    const path = join(home, "seats", "judge.json");
    chmodSync(path, 0o644);
    try {
      const run = await p.run(["read", ...seat("judge")]);
      expect(run.code).toBe(7);
      expect(run.stderr).toContain("chmod 600");
    } finally {
      chmodSync(path, 0o600);
    }
  });

  it("exits 7, loudly, when the relay's key differs from the pin", async () => {
    const pins = join(home, "pins.json");
    const original = readFileSync(pins, "utf8");
    const pinned = JSON.parse(original).relays[relay.url].relay_key as string;
    writeFileSync(pins, original.replace(pinned, "B".repeat(42) + "A"));
    try {
      const run = await p.run(["read", ...seat("judge")]);
      expect(run.code).toBe(7);
      expect(run.stderr).toContain("THE RELAY KEY CHANGED");
      expect(run.stderr).toContain("trestle pin --forget");
    } finally {
      writeFileSync(pins, original);
    }
  });

  it("pins, lists and forgets relay keys", async () => {
    expect((await t.run(["pin"])).stdout).toMatch(new RegExp(`^${relay.url} is pinned to [A-Za-z0-9_-]{43}\n$`));
    expect((await t.json(["pin", "--list"])).body).toHaveProperty([relay.url]);
    const other = cli(mkdtempSync(join(tmpdir(), "trestle-cli-pin-")), relay.url);
    expect((await other.json(["pin"])).body).toMatchObject({ first_use: true });
    expect((await other.json(["pin", "--forget"])).body).toEqual({ url: relay.url, forgot: true });
    expect((await other.json(["pin", "--list"])).body).toEqual({});
  });

  it("lists every command and exit code in help", async () => {
    const run = await t.run(["help"]);
    expect(run.code).toBe(0);
    for (const verb of [
      "keygen",
      "create",
      "join",
      "say",
      "pass",
      "raise-hand",
      "propose",
      "decide",
      "read",
      "watch",
      "history",
      "verify",
      "export",
    ]) {
      expect(run.stdout).toContain(`  ${verb} `);
    }
    expect((await t.run(["say", "--help"])).stdout).toContain("usage: trestle say <text | ->");
  });

  it("lists a family's verbs for trestle help room and trestle room --help, and names them when the verb is missing or unknown", async () => {
    for (const args of [
      ["help", "room"],
      ["room", "--help"],
    ]) {
      const run = await t.run(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("usage: trestle room <verb> [flags]");
      for (const verb of ["create", "invite", "join", "offer", "accept", "auction", "bid", "reveal"])
        expect(run.stdout).toMatch(new RegExp(`^  room ${verb} +\\S`, "m"));
    }
    const bare = await t.run(["room"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^error E_USAGE: "room" needs a verb; room's verbs: create, invite, join,/m);
    const unknown = await t.run(["gate", "frob"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error E_USAGE: "gate frob" is no command; gate's verbs: list, approve, reject, send/m,
    );
  });

  it("prints the package's version for --version and -V", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-V"])
      expect(await t.run([flag])).toEqual({ code: 0, stdout: `trestle ${version}\n`, stderr: "" });
    expect(await t.json(["--version"])).toMatchObject({ code: 0, body: { version } });
  });
});
