/** Domain-separated statement signing (docs/SPEC.md §4): purposes, statements, heads, robustness. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  canonicalSha256,
  fromHex,
  isForkProof,
  nobleEd25519,
  PROTOCOL_LABEL,
  signHead,
  signingBytes,
  SIGNING_PURPOSES,
  signStatement,
  statementOf,
  textSha256,
  toBase64url,
  verifyHeadSignature,
  verifyStatement,
  webCryptoEd25519,
  type Ed25519,
  type Entry,
  type EntryDraft,
  type JoinStatement,
  type SignedHead,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, keyOf, MemoryLedger, nonceOf, type Cast } from "../../support/table-fixture.js";

let k: Cast;
let impls: Ed25519[];
beforeAll(async () => {
  k = await cast();
  impls = [nobleEd25519, (await webCryptoEd25519())!];
});

const joinStatement = (): JoinStatement => ({
  table: "t-459",
  seat: "bot-tao",
  owner: "tao",
  seat_key: k.botTao.publicKeyText,
  card_sha256: canonicalSha256({ summary: "bot-tao" }),
  human: false,
  nonce: nonceOf("join"),
  expires: 1_800_000_060_000,
});

/** True iff the entry's recorded statement verifies under its recorded key. */
async function entryVerifies(entry: Entry): Promise<boolean> {
  const recorded = statementOf(entry as EntryDraft)!;
  return verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig);
}

describe("signingBytes", () => {
  it("starts with the protocol label and purpose, then the JCS bytes", () => {
    const bytes = signingBytes("join", { b: 1, a: "x" });
    expect(new TextDecoder().decode(bytes)).toBe(`${PROTOCOL_LABEL} join\n{"a":"x","b":1}`);
  });

  it("gives every purpose distinct bytes for one statement", () => {
    const texts = SIGNING_PURPOSES.map((p) => new TextDecoder().decode(signingBytes(p, { a: 1 })));
    expect(new Set(texts).size).toBe(SIGNING_PURPOSES.length);
  });
});

describe("signStatement and verifyStatement", () => {
  it("verifies a join statement under the owner's key with both implementations", async () => {
    const sig = await signStatement(k.tao, "join", joinStatement());
    for (const impl of impls)
      expect(await verifyStatement(k.tao.publicKeyText, "join", joinStatement(), sig, impl)).toBe(true);
  });

  it("verifies a statement whatever the key order of the object", async () => {
    const sig = await signStatement(k.tao, "join", joinStatement());
    const reordered = Object.fromEntries(Object.entries(joinStatement()).reverse());
    expect(await verifyStatement(k.tao.publicKeyText, "join", reordered, sig)).toBe(true);
  });

  it("does not verify a join signature as an entry (domain separation)", async () => {
    const sig = await signStatement(k.tao, "join", joinStatement());
    for (const impl of impls)
      expect(await verifyStatement(k.tao.publicKeyText, "entry", joinStatement(), sig, impl)).toBe(false);
  });

  it("does not verify a signature under any purpose but its own", async () => {
    const statement = { table: "t-459", n: 1 };
    for (const signed of SIGNING_PURPOSES) {
      const sig = await signStatement(k.relay, signed, statement);
      for (const checked of SIGNING_PURPOSES) {
        expect(await verifyStatement(k.relay.publicKeyText, checked, statement, sig)).toBe(signed === checked);
      }
    }
  });

  it("does not verify under another key", async () => {
    const sig = await signStatement(k.tao, "join", joinStatement());
    expect(await verifyStatement(k.jenny.publicKeyText, "join", joinStatement(), sig)).toBe(false);
  });

  describe("when one field of the signed statement changes", () => {
    const changes: [keyof JoinStatement, unknown][] = [
      ["table", "t-461"],
      ["seat", "bot-jenny"],
      ["owner", "jenny"],
      ["seat_key", "B".repeat(43).replace(/B$/, "A")],
      ["card_sha256", "0".repeat(64)],
      ["human", true],
      ["nonce", nonceOf("other")],
      ["expires", 1_800_000_060_001],
    ];
    it.each(changes)("fails after changing %s", async (field, value) => {
      const sig = await signStatement(k.tao, "join", joinStatement());
      const changed = { ...joinStatement(), [field]: value };
      for (const impl of impls)
        expect(await verifyStatement(k.tao.publicKeyText, "join", changed, sig, impl)).toBe(false);
    });

    it("fails after adding a field", async () => {
      const sig = await signStatement(k.tao, "join", joinStatement());
      expect(await verifyStatement(k.tao.publicKeyText, "join", { ...joinStatement(), extra: 1 }, sig)).toBe(false);
    });
  });

  describe("when the key or signature text is malformed", () => {
    const cases: [string, (key: string, sig: string) => [string, string]][] = [
      ["a padded key", (key, sig) => [`${key}=`, sig]],
      ["a 31-byte key", (_key, sig) => [toBase64url(new Uint8Array(31)), sig]],
      ["a 33-byte key", (_key, sig) => [toBase64url(new Uint8Array(33)), sig]],
      ["an empty key", (_key, sig) => ["", sig]],
      ["a key in standard base64", (key, sig) => [key.replace(/[-_]/g, "+").replace(/^./, "+"), sig]],
      ["a key with non-zero tail bits", (key, sig) => [key.slice(0, -1) + "B", sig]],
      ["a 63-byte signature", (key) => [key, toBase64url(new Uint8Array(63))]],
      ["a 65-byte signature", (key) => [key, toBase64url(new Uint8Array(65))]],
      ["an empty signature", (key) => [key, ""]],
      ["a signature with a space", (key, sig) => [key, `${sig.slice(0, 10)} ${sig.slice(11)}`]],
      ["a signature with non-zero tail bits", (key, sig) => [key, sig.slice(0, -1) + "B"]],
      ["a signature of length 1 mod 4", (key, sig) => [key, `${sig}A`]],
    ];
    it.each(cases)("returns false (no throw) for %s", async (_what, mutate) => {
      const sig = await signStatement(k.tao, "join", joinStatement());
      const [key, badSig] = mutate(k.tao.publicKeyText, sig);
      for (const impl of impls)
        await expect(verifyStatement(key, "join", joinStatement(), badSig, impl)).resolves.toBe(false);
    });

    it("returns false for a key that is no curve point", async () => {
      const notOnCurve = new Uint8Array(32);
      notOnCurve[0] = 2;
      const sig = await signStatement(k.tao, "join", joinStatement());
      for (const impl of impls)
        expect(await verifyStatement(toBase64url(notOnCurve), "join", joinStatement(), sig, impl)).toBe(false);
    });
  });

  // Node 20's WebCrypto alone would accept R = identity, S = 0 under the identity key for any
  // statement; verifyStatement must refuse it with every implementation.
  it("refuses a forged statement under a small-order public key", async () => {
    const identity = toBase64url(fromHex("01" + "00".repeat(31)));
    const forged = toBase64url(fromHex("01" + "00".repeat(63)));
    expect(await verifyStatement(identity, "entry", { any: "statement" }, forged)).toBe(false);
    for (const impl of impls)
      expect(await verifyStatement(identity, "entry", { any: "statement" }, forged, impl)).toBe(false);
  });
});

describe("recorded statements of ledger entries", () => {
  async function debateEntries(): Promise<Entry[]> {
    const l = new MemoryLedger(k.relay);
    await l.create(k.ops, "ops", debateConfig(k, { floor: { max_chars: 40 } }));
    await l.join(k.tao, "tao", "bot-tao", k.botTao);
    await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
    await l.join(k.ops, "ops", "judge", k.judge);
    const say = {
      seat: "bot-tao",
      kind: "say",
      body: "opening",
      to: ["bot-jenny"],
      re: 2,
      refs: ["entry:1"],
      budget: { tokens: 3 },
    } as const;
    await l.submit(k.botTao, say as Parameters<MemoryLedger["submit"]>[1]);
    await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "x".repeat(50) });
    return l.entries;
  }

  it("verifies every signed entry of a real ledger: create, joins, says, a truncated say", async () => {
    const entries = await debateEntries();
    const signed = entries.filter((e) => statementOf(e as EntryDraft) !== null);
    expect(signed.map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual([
      "table_opened",
      "seat_joined",
      "seat_joined",
      "seat_joined",
      "say",
      "say",
    ]);
    for (const e of signed) expect(await entryVerifies(e)).toBe(true);
  });

  it("signs the hash of the full body, so a truncated entry still verifies", async () => {
    const say = (await debateEntries()).at(-2)!;
    expect(say).toMatchObject({
      kind: "say",
      body: "x".repeat(40),
      truncated: { chars: 50, body_sha256: textSha256("x".repeat(50)) },
    });
    expect(statementOf(say as EntryDraft)!.statement).toMatchObject({ body_sha256: textSha256("x".repeat(50)) });
  });

  it("records no statement for relay-made entries (floor, table_closed)", async () => {
    const floor = (await debateEntries()).find((e) => e.kind === "system" && e.subkind === "floor")!;
    expect(statementOf(floor as EntryDraft)).toBeNull();
  });

  describe("when one signed field of a say changes", () => {
    const changes: [string, Record<string, unknown>][] = [
      ["body", { body: "closing" }],
      ["kind", { kind: "proposal" }],
      ["seat", { seat: "bot-jenny" }],
      ["table", { table: "t-461" }],
      ["nonce", { nonce: nonceOf("replay") }],
      ["to", { to: ["judge"] }],
      ["re", { re: 3 }],
      ["refs", { refs: ["entry:2"] }],
      ["budget", { budget: { tokens: 4 } }],
      ["truncated (a claimed different original)", { truncated: { chars: 99, body_sha256: "0".repeat(64) } }],
    ];
    it.each(changes)("fails after changing %s", async (_field, change) => {
      const say = (await debateEntries()).find((e) => e.kind === "say")!;
      expect(await entryVerifies({ ...say, ...change } as Entry)).toBe(false);
    });

    it("still verifies after a relay field changes (ts, seq: the chain covers those, not the seat)", async () => {
      const say = (await debateEntries()).find((e) => e.kind === "say")!;
      expect(await entryVerifies({ ...say, ts: say.ts + 1, seq: say.seq + 1 })).toBe(true);
    });
  });

  describe("when the config of table_opened changes", () => {
    it("fails the creator's signature", async () => {
      const opened = (await debateEntries())[0]!;
      if (opened.kind !== "system" || opened.subkind !== "table_opened") throw new Error("first entry");
      const changed = {
        ...opened,
        data: { ...opened.data, config: { ...opened.data.config, topic: "Should #461 ship first?" } },
      };
      expect(await entryVerifies(changed)).toBe(false);
    });
  });
});

describe("relay heads", () => {
  const statement = { table: "t-459", seq: 7, link: "ab".repeat(32) };

  it("verifies a head under its relay key and names that key", async () => {
    const head = await signHead(k.relay, statement);
    expect(head.relay).toBe(k.relay.publicKeyText);
    expect(await verifyHeadSignature(head)).toBe(true);
  });

  it("is deterministic, so it need not be stored", async () => {
    expect(await signHead(k.relay, statement)).toEqual(await signHead(k.relay, statement));
  });

  describe("when one field of a signed head changes", () => {
    it.each([
      ["table", { table: "t-461" }],
      ["seq", { seq: 8 }],
      ["link", { link: "cd".repeat(32) }],
    ])("fails after changing %s", async (_field, change) => {
      const head = await signHead(k.relay, statement);
      expect(await verifyHeadSignature({ ...head, ...change })).toBe(false);
    });

    it("fails when it names another relay key", async () => {
      const head = await signHead(k.relay, statement);
      const other = await keyOf("another relay");
      expect(await verifyHeadSignature({ ...head, relay: other.publicKeyText })).toBe(false);
    });

    it("fails when the head signature is a join signature over the same fields", async () => {
      const head = await signHead(k.relay, statement);
      const { sig: _sig, ...fields } = head;
      const joinSig = await signStatement(k.relay, "join", fields);
      expect(await verifyHeadSignature({ ...head, sig: joinSig })).toBe(false);
    });
  });

  describe("fork proofs", () => {
    let a: SignedHead;
    beforeAll(async () => {
      a = await signHead(k.relay, statement);
    });

    it("proves a fork with two heads of one relay, table and seq with different links", async () => {
      const b = await signHead(k.relay, { ...statement, link: "cd".repeat(32) });
      expect(await verifyHeadSignature(b)).toBe(true);
      expect(isForkProof(a, b)).toBe(true);
    });

    it.each([
      ["the same link", { link: "ab".repeat(32) }],
      ["another seq", { seq: 8, link: "cd".repeat(32) }],
      ["another table", { table: "t-461", link: "cd".repeat(32) }],
    ])("proves nothing with %s", async (_what, change) => {
      expect(isForkProof(a, await signHead(k.relay, { ...statement, ...change }))).toBe(false);
    });

    it("proves nothing with heads of two relays", async () => {
      const other = await signHead(await keyOf("another relay"), { ...statement, link: "cd".repeat(32) });
      expect(isForkProof(a, other)).toBe(false);
    });
  });
});
