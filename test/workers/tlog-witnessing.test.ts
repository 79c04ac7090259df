/**
 * The relay submits a table's checkpoint to the witnesses its config names (docs/SPEC.md §12,
 * decision 0396): from the alarm, batched after writes, with tlog-witness's add-checkpoint body; it
 * keeps a cosignature only when it verifies under the configured key and serves it on
 * /checkpoint while it is for exactly that checkpoint; a 409 is answered from the witness's size.
 * The witness here is an in-test handler built from src/protocol/tlog alone (not the witness Worker,
 * which the end-to-end test drives), plugged in through the object's one `submit(url, body)`.
 */
import { SELF, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ed25519, fromBase64url, utf8, type Signer } from "../../src/protocol/index.js";
import { checkpointRoot, parseCheckpoint, type Checkpoint } from "../../src/protocol/tlog/checkpoint.js";
import { cosignatureSigner, cosignatureVerifier, SIG_TYPE_COSIGNATURE } from "../../src/protocol/tlog/cosignature.js";
import { ed25519NoteVerifier, formatVerifierKey, openNote, signatureLine } from "../../src/protocol/tlog/note.js";
import { verifyConsistency } from "../../src/protocol/tlog/proofs.js";
import { formatTreeSizeBody, parseAddCheckpoint } from "../../src/protocol/tlog/witness.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import type { Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stubOf = (id: string) => env.TABLES.getByName(id);
const NAME = "witness.test/w1";

/** A witness of one log, from the pure functions: it checks the relay's note, its own size and the consistency proof, then cosigns. */
class TestWitness {
  held: Checkpoint | null = null;
  bodies: string[] = [];
  constructor(
    private readonly key: Signer,
    private readonly relayKey: Uint8Array,
  ) {}

  readonly submit = async (url: string, body: string): Promise<Response> => {
    expect(url).toBe("https://witness.test/w1");
    this.bodies.push(body);
    const request = parseAddCheckpoint(body);
    const origin = request.note.split("\n", 1)[0]!;
    const checkpoint = parseCheckpoint(
      (await openNote(request.note, [ed25519NoteVerifier(origin, this.relayKey)])).text,
    );
    const size = this.held?.size ?? 0;
    if (request.oldSize !== size)
      return new Response(formatTreeSizeBody(size), { status: 409, headers: { "content-type": "text/x.tlog.size" } });
    if (
      this.held &&
      !verifyConsistency(size, checkpoint.size, request.proof, checkpointRoot(this.held), checkpointRoot(checkpoint))
    )
      return new Response("inconsistent", { status: 422 });
    this.held = checkpoint;
    const text = request.note.slice(0, request.note.indexOf("\n\n") + 1);
    const signer = cosignatureSigner(NAME, this.key, 1767225600);
    return new Response(`${signatureLine(NAME, signer.keyId, await signer.sign(utf8(text)))}\n`);
  };
}

const ID = "tlog-witnessed";
let k: Cast;
let witness: TestWitness;
let witnessKey: Signer;
let relayKey: Uint8Array;

let shift = 0;

/** Plugs the test witness into the table's object (again after an eviction) and runs its alarm with the clock moved past any submission or retry due. */
async function alarmWithWitness(submit = witness.submit): Promise<void> {
  shift += 300_000;
  const moved = shift;
  await runInDurableObject(stubOf(ID), (instance: TableDO) => {
    instance.table.witnessSubmit = submit;
    instance.table.now = () => Date.now() + moved;
  });
  await runDurableObjectAlarm(stubOf(ID));
}

async function checkpointNote(): Promise<string> {
  return (await SELF.fetch(`https://relay.test/tables/${ID}/checkpoint`)).text();
}

async function say(body: string): Promise<void> {
  expect((await relay.say(ID, k.botTao, { seat: "bot-tao", kind: "say", body })).status).toBe(201);
}

beforeAll(async () => {
  relayKey = fromBase64url((await relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string);
  witnessKey = await (await ed25519()).signer(new Uint8Array(32).fill(11));
  witness = new TestWitness(witnessKey, relayKey);
  const witnesses = {
    k: 1,
    list: [
      { key: formatVerifierKey(NAME, SIG_TYPE_COSIGNATURE, witnessKey.publicKey), url: "https://witness.test/w1" },
    ],
  };
  k = await seatedDebate(relay, ID, {
    public: true,
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 100 }] },
    witnesses,
  });
});

describe("witnessing a table's checkpoints", () => {
  it("submits the checkpoint from the alarm and serves the verified cosignature with exactly that checkpoint, also after an eviction", async () => {
    await say("one");
    await alarmWithWitness();
    expect(witness.bodies).toHaveLength(1);
    expect(witness.bodies[0]).toMatch(/^old 0\n\n/);
    const note = await checkpointNote();
    const opened = await openNote(note, [
      ed25519NoteVerifier(`relay.test/tables/${ID}`, relayKey),
      cosignatureVerifier(NAME, witnessKey.publicKey),
    ]);
    expect(opened.verified.map((s) => s.name)).toEqual([`relay.test/tables/${ID}`, NAME]);
    await evictDurableObject(stubOf(ID));
    expect(await checkpointNote()).toBe(note);

    await say("two");
    expect(await checkpointNote()).not.toContain(NAME);
    await alarmWithWitness();
    expect(witness.bodies[1]).toMatch(new RegExp(`^old ${parseCheckpoint(opened.text).size}\\n[A-Za-z0-9+/=]+\\n`));
    expect(await checkpointNote()).toContain(`— ${NAME} `);
  });

  it("answers a 409 from the size the witness holds, with a consistency proof from there", async () => {
    // The witness lost its state: it holds the empty tree, the relay's row says more.
    witness.held = null;
    await say("three");
    await alarmWithWitness();
    const last = witness.bodies.slice(-2);
    expect(last[0]).toMatch(/^old [1-9][0-9]*\n/);
    expect(last[1]).toMatch(/^old 0\n\n/);
    expect(await checkpointNote()).toContain(`— ${NAME} `);
  });

  describe("when the witness's cosignature does not verify under its configured key", () => {
    it("keeps nothing and serves the checkpoint without it, trying again on a later alarm", async () => {
      const stranger = await (await ed25519()).signer(new Uint8Array(32).fill(12));
      const forger = new TestWitness(stranger, relayKey);
      forger.held = witness.held;
      await say("four");
      await alarmWithWitness(forger.submit);
      expect(forger.bodies.length).toBeGreaterThan(0);
      expect(await checkpointNote()).not.toContain(NAME);
      const retry = await runInDurableObject(stubOf(ID), (_: TableDO, state) => state.storage.getAlarm());
      expect(retry).not.toBeNull();
      await alarmWithWitness();
      expect(await checkpointNote()).toContain(`— ${NAME} `);
    });
  });
});
