/**
 * `trestle witness` as a user runs it (docs/CLI.md): the key made once in the home and printed by
 * --print-key, a witness on 127.0.0.1 cosigning the log given with --log over HTTP, refusing a
 * fork and keeping the evidence, its state still there after a restart; no --log is a usage error.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cosignatureVerifierFromKey, openNote } from "../../../src/protocol/index.js";
import { cli } from "../../support/cli.js";
import { testLog, type TestLog } from "../../support/witness-log.js";

const ORIGIN = "relay.example.com/tables/cli-witnessed";
// The witness never talks to a relay; nothing listens here.
const NO_RELAY = "http://127.0.0.1:9";

let log: TestLog;
let forked: TestLog;
beforeAll(async () => {
  log = await testLog(ORIGIN, 3);
  forked = await testLog(ORIGIN, 3, "forked ");
});

const post = (url: string, body: string) => fetch(`${url}/add-checkpoint`, { method: "POST", body });

// A spawned process starts and loads the bundle in each test: a slow machine is not a failure.
describe("trestle witness", { timeout: 30_000 }, () => {
  it("makes its key once and prints the same verifier key each time with --print-key", async () => {
    const home = mkdtempSync(join(tmpdir(), "trestle-witness-cli-"));
    const t = cli(home, NO_RELAY);
    const first = await t.run(["witness", "--print-key"]);
    const second = await t.run(["witness", "--print-key"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^trestle-witness\/[0-9a-f]{8}\+[0-9a-f]{8}\+\S+\n$/);
    expect(second.stdout).toBe(first.stdout);
    expect(statSync(join(home, "witness", "key.json")).mode & 0o777).toBe(0o600);
  });

  it("cosigns the named log over HTTP, refuses a fork keeping both notes, and holds its state across a restart", async () => {
    const home = mkdtempSync(join(tmpdir(), "trestle-witness-cli-"));
    const t = cli(home, NO_RELAY);
    const witness = t.start(["witness", "--log", log.entry, "--json"]);
    const [line] = await witness.printed(/^\{.*\}$/m);
    const info = JSON.parse(line!) as { url: string; verifier_key: string; logs: string[] };
    expect(info.logs).toEqual([ORIGIN]);
    expect(await (await fetch(info.url)).json()).toEqual({
      name: expect.stringMatching(/^trestle-witness\//),
      verifier_key: info.verifier_key,
      logs: [ORIGIN],
    });

    const cosigned = await post(info.url, await log.body(0, 6));
    expect(cosigned.status).toBe(200);
    await openNote(`${await log.note(6)}${await cosigned.text()}`, [cosignatureVerifierFromKey(info.verifier_key)]);
    const fork = await post(info.url, await forked.body(6, 6));
    expect(fork.status).toBe(422);
    const { evidence } = (await (await fetch(`${info.url}/evidence`)).json()) as {
      evidence: { kind: string; conflicting: string }[];
    };
    expect(evidence.map((e) => [e.kind, e.conflicting])).toEqual([["fork", await forked.note(6)]]);
    witness.child.kill("SIGINT");
    expect((await witness.done).code).toBe(0);

    const again = t.start(["witness", "--log", log.entry, "--json"]);
    const url = (JSON.parse((await again.printed(/^\{.*\}$/m))[0]) as { url: string }).url;
    const stale = await post(url, await log.body(0, 9));
    expect([stale.status, await stale.text()]).toEqual([409, "6\n"]);
    expect((await post(url, await log.body(6, 9))).status).toBe(200);
    again.child.kill("SIGTERM");
    expect((await again.done).code).toBe(0);
  });

  describe("when it is given no log, or a malformed one", () => {
    it("says what to pass (exit 2)", async () => {
      const t = cli(mkdtempSync(join(tmpdir(), "trestle-witness-cli-")), NO_RELAY);
      const none = await t.run(["witness"]);
      expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("--log ORIGIN=VKEY")]);
      const bad = await t.run(["witness", "--log", `${ORIGIN}=not-a-key`]);
      expect(bad.code).toBe(2);
    });
  });
});
