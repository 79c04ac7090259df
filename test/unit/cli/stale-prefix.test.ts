/**
 * Every verified read keeps its head (docs/SPEC.md §8.3, issue 22): a command that verified a newer
 * ledger than the one this home held keeps that ledger's head, so a relay that later serves an older
 * prefix of it (rolled back to an older copy of its storage) is caught: the command exits 4 and
 * the truncation is kept as evidence. One URL (a proxy) stands for the relay; behind it, the live
 * storage or a copy taken before the last entries, with the same relay key.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileHeadStore } from "../../../src/client/node.js";
import { toBase64url } from "../../../src/protocol/index.js";
import { cli, spawnedCli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { startProxy, type TcpProxy } from "../../support/tcp-proxy.js";

const SEED = toBase64url(new Uint8Array(32).fill(22));
const table = uniqueTable("r-stale");
const work = mkdtempSync(join(tmpdir(), "trestle-stale-"));
const writerHome = join(work, "writer");
let live: LocalRelay;
let old: LocalRelay | undefined;
let proxy: TcpProxy;
let relayKey: string;
let newest: number;

const seat = (name: string) => ["--table", table, "--seat", name];
const headOf = (home: string): { seq: number } =>
  JSON.parse(readFileSync(join(home, "heads", relayKey, `${table}.json`), "utf8"));

/** Each command that reads the ledger by its export, run as this home's owner or seats (`home` for a file it writes); read, history, tasks and watch: rollback.test.ts. */
const commands: [string, (home: string) => string[]][] = [
  ["room show", () => ["room", "show", "--table", table, "--owner", "oa"]],
  ["mandate show", () => ["mandate", "show", ...seat("sa")]],
  ["gate list", () => ["gate", "list", ...seat("sa")]],
  ["verify", () => ["verify", table, "--owner", "oa"]],
  ["export", (home) => ["export", "--table", table, "--owner", "oa", "--out", join(home, "export.jsonl")]],
];
const homeFor = (name: string) => join(work, `reader-${name.replace(" ", "-")}`);

beforeAll(async () => {
  const storage = join(work, "storage");
  live = await startRelay({ signingKey: SEED, persist: storage });
  proxy = await startProxy(live.port);
  const w = cli(writerHome, proxy.url);
  expect((await w.run(["keygen", "--owner", "oa"])).code).toBe(0);
  expect((await w.run(["room", "create", "--table", table, "--topic", "a stroller", "--owner", "oa"])).code).toBe(0);
  for (const name of ["sa", "sb"]) expect((await w.run(["join", ...seat(name), "--owner", "oa"])).code).toBe(0);
  // A message the gate holds, so `gate list` reads the transcript to show it.
  expect((await w.run(["mandate", "set", ...seat("sa"), "--owner", "oa", "--require-confirm", "say"])).code).toBe(0);
  expect((await w.run(["say", ...seat("sa"), "held for the owner"])).code).toBe(3);
  expect((await w.run(["say", ...seat("sb"), "the older copy ends here"])).code).toBe(0);
  relayKey = JSON.parse(readFileSync(join(writerHome, "pins.json"), "utf8")).relays[proxy.url].relay_key;

  // The older copy of the relay's storage, and reader homes that saw no more than it.
  await live.dispose();
  cpSync(storage, join(work, "storage-old"), { recursive: true });
  for (const [name] of commands) cpSync(writerHome, homeFor(name), { recursive: true });
  live = await startRelay({ signingKey: SEED, persist: storage });
  proxy.retarget(live.port);
  for (const text of ["asking 3,600", "3,000 and it is a deal"])
    expect((await w.run(["say", ...seat("sb"), text])).code).toBe(0);
  newest = headOf(writerHome).seq;
  old = await startRelay({ signingKey: SEED, persist: join(work, "storage-old") });
}, 180_000);

afterAll(async () => {
  await Promise.all([live?.dispose(), old?.dispose(), proxy?.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe("a command that verified a newer ledger, then meets an older prefix of it", { timeout: 60_000 }, () => {
  it.each(commands)("`trestle %s` keeps the newer head it verified", async (name, args) => {
    const home = homeFor(name);
    expect(headOf(home).seq).toBeLessThan(newest);
    const run = await cli(home, proxy.url).run(args(home));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(headOf(home).seq).toBe(newest);
  });

  describe("when the relay then serves the older prefix", () => {
    beforeAll(() => proxy.retarget(old!.port));

    it.each(commands)(
      "`trestle %s` catches the truncation: exit 4, the newer head and the evidence kept",
      async (name, args) => {
        const home = homeFor(name);
        // A new process: connections this process keeps open would still reach the live relay behind the proxy.
        const run = await spawnedCli(home, proxy.url).run(args(home));
        expect(run.code, run.stdout + run.stderr).toBe(4);
        expect(headOf(home).seq).toBe(newest);
        expect(new FileHeadStore(home).evidence(relayKey, table)).toEqual([
          expect.objectContaining({ kind: "truncation", table, seq: expect.any(Number) }),
        ]);
      },
    );
  });
});
