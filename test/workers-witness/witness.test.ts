/** The witness Worker in workerd (wrangler.witness.toml): add-checkpoint over HTTP, its refusals, the monitor read, evidence, and state kept across eviction. */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { cosignatureVerifierFromKey, ed25519VerifierFromKey, openNote, originHash } from "../../src/protocol/index.js";
import type { WitnessEnv } from "../../durable-objects/witness/witness.js";
import { WITNESS_TEST_ORIGINS } from "../support/witness-env.js";
import { testLog, type TestLog } from "../support/witness-log.js";

const [WITNESSED, EVICTED] = WITNESS_TEST_ORIGINS;
const bindings = env as unknown as WitnessEnv;

const post = (body: string) => SELF.fetch("https://witness.test/add-checkpoint", { method: "POST", body });
const get = (path: string) => SELF.fetch(`https://witness.test${path}`);

let log: TestLog;
let forked: TestLog;
let vkey: string;
beforeAll(async () => {
  log = await testLog(WITNESSED, 1);
  forked = await testLog(WITNESSED, 1, "forked ");
  vkey = ((await (await get("/")).json()) as { verifier_key: string }).verifier_key;
});

describe("the witness Worker", () => {
  it("names itself, its verifier key and its logs", async () => {
    expect(await (await get("/")).json()).toEqual({
      name: "witness.test/w1",
      verifier_key: vkey,
      logs: [...WITNESS_TEST_ORIGINS],
    });
    expect(vkey).toMatch(/^witness\.test\/w1\+[0-9a-f]{8}\+/);
  });

  it("cosigns a log's checkpoints, refuses a stale old size and a fork, serves the cosigned checkpoint and the evidence, kept once", async () => {
    const first = await post(await log.body(0, 5));
    expect(first.status).toBe(200);
    await openNote(`${await log.note(5)}${await first.text()}`, [cosignatureVerifierFromKey(vkey)]);
    expect((await post(await log.body(5, 9))).status).toBe(200);

    const stale = await post(await log.body(5, 12));
    expect([stale.status, stale.headers.get("content-type"), await stale.text()]).toEqual([
      409,
      "text/x.tlog.size",
      "9\n",
    ]);

    const fork = await post(await forked.body(9, 9));
    expect([fork.status, ((await fork.json()) as { error: { code: string } }).error.code]).toEqual([
      422,
      "E_INCONSISTENT",
    ]);
    // The same conflicting note again, with a stale old size this time: refused, kept once.
    expect((await post(await forked.body(0, 9))).status).toBe(409);

    const monitor = await (await get(`/${originHash(WITNESSED)}/checkpoint`)).text();
    const opened = await openNote(monitor, [ed25519VerifierFromKey(log.vkey), cosignatureVerifierFromKey(vkey)]);
    expect(opened.text).toBe((await log.note(9)).split("\n\n")[0] + "\n");
    expect(opened.verified).toHaveLength(2);

    const { evidence } = (await (await get("/evidence")).json()) as {
      evidence: { kind: string; conflicting: string; cosigned: string }[];
    };
    expect(evidence.map((e) => [e.kind, e.conflicting])).toEqual([["fork", await forked.note(9)]]);
    expect(evidence[0]!.cosigned).toBe(monitor);
  });

  describe("when a request is refused", () => {
    it("answers 404 for an origin it does not witness and 403 for a log signature it does not trust", async () => {
      expect((await post(await (await testLog("relay.example.com/tables/stranger", 1)).body(0, 3))).status).toBe(404);
      expect((await post(await (await testLog(WITNESSED, 5)).body(0, 3))).status).toBe(403);
      expect((await get(`/${originHash("relay.example.com/tables/stranger")}/checkpoint`)).status).toBe(404);
    });

    it("answers 400 for a malformed body and 413 for one longer than any request", async () => {
      expect((await post("old 1\n")).status).toBe(400);
      expect((await post("x".repeat(300_000))).status).toBe(413);
    });
  });

  it("keeps what it cosigned when its object is evicted", async () => {
    const evicted = await testLog(EVICTED, 1);
    expect((await post(await evicted.body(0, 7))).status).toBe(200);
    await evictDurableObject(bindings.WITNESS.getByName("witness"));
    expect(await (await post(await evicted.body(0, 8))).text()).toBe("7\n");
    expect((await post(await evicted.body(7, 8))).status).toBe(200);
  });
});
