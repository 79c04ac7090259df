/**
 * The commitment gate on a real relay (docs/ROOMS.md): one owner approval, one message, spent
 * once; a rejection wins; an unknown send outcome keeps the approval spent; a sent, rejected or
 * expired held message is refused before anything is spent or sent; a loosened mandate
 * gates every accept, grant and priced offer; and the gate refuses to commit on a transcript that
 * does not verify completely (a body the relay altered under a real signature, a served prefix).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchLike } from "../../../src/client/index.js";
import {
  canonicalSha256,
  exportText,
  fromBase64url,
  isEntry,
  nobleEd25519,
  parseExport,
  sha256,
  signHead,
  toBase64url,
  utf8,
} from "../../../src/protocol/index.js";
import { rechain, refusal } from "../protocol/fixtures.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { GuardedSeat } from "../../../src/owner/index.js";
import { leafAt, mandate, offerFrom, strollerRoom, type Side } from "../../support/room-client.js";
import { keyOf } from "../../support/table-fixture.js";
import { twd } from "../../support/room-fixture.js";
import { staleExports } from "../../support/stale-exports.js";

/** The relay's signing seed, so a test can play a relay that re-signs heads over a ledger it altered. */
const SEED = toBase64url(sha256(utf8("gate test relay")));

let relay: LocalRelay;
beforeAll(async () => {
  relay = await startRelay({ signingKey: SEED });
}, 60_000);

/** The export `text` with the offer's amount changed, re-chained and with heads re-signed by the relay's own key: a lie only the seat's signature shows. */
async function alteredExport(text: string): Promise<string> {
  const parsed = parseExport(text);
  if (!parsed.ok) throw new Error("not an export");
  const relayKey = await nobleEd25519.signer(fromBase64url(SEED));
  const items = parsed.view.items.map((item) =>
    isEntry(item) && item.kind === "offer" ? { ...item, terms: { ...item.terms, amount: 180000 } } : item,
  );
  const entries = rechain(items.filter(isEntry));
  const heads = await Promise.all(
    parsed.view.heads.map((h) => signHead(relayKey, { table: h.table, seq: h.seq, link: entries[h.seq - 1]!.link })),
  );
  return exportText(parsed.header, entries, heads);
}
afterAll(async () => {
  await relay?.dispose();
});

/** Holds `input` as `side` (its mandate requires confirmation), returning the held message's hash. */
async function hold(side: Side, input: Parameters<Side["guard"]["send"]>[0]): Promise<string> {
  const error = await refusal(() => side.guard.send(input));
  expect(error.code).toBe("E_HELD");
  return String(error.details!.message_sha256);
}

describe("confirmation by the owner", () => {
  it("holds a require_confirm kind, sends it once the owner approves its hash, and records both", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { require_confirm: ["accept"] });
    const ask = await offerFrom(sara, twd(280000));
    const head = (await ben.client.head()).seq;
    const hash = await hold(ben, { kind: "accept", offer: ask });
    expect((await ben.client.head()).seq).toBe(head);
    expect(ben.guard.pending().map((h) => h.message_sha256)).toEqual([hash]);
    expect(canonicalSha256(ben.guard.pending()[0]!.submission)).toBe(hash);
    await ben.guard.answer(ben.ownerKey, hash, "approve");
    const sent = await ben.guard.sendHeld(hash);
    expect(sent.message_sha256).toBe(hash);
    expect(ben.guard.pending()).toEqual([]);
    expect(ben.guard.journal.ofType("sent").at(-1)).toMatchObject({
      message_sha256: hash,
      kind: "accept",
      seq: sent.seq,
      approval: expect.any(String),
    });
  });

  describe("when an approval is misused", () => {
    it("refuses an approval reused for a second send (spent once)", async () => {
      const { ben } = await strollerRoom(relay.url);
      await mandate(ben, { require_confirm: ["say"] });
      const hash = await hold(ben, { kind: "say", body: "hello" });
      await ben.guard.answer(ben.ownerKey, hash, "approve");
      await ben.guard.sendHeld(hash);
      const error = await refusal(() => ben.guard.sendHeld(hash));
      expect(error).toMatchObject({ code: "E_GATE", details: { reason: "spent" } });
    });

    it("refuses an approval used for another message: it holds that one too", async () => {
      const { ben } = await strollerRoom(relay.url);
      await mandate(ben, { require_confirm: ["offer"] });
      const approved = await hold(ben, { kind: "offer", terms: twd(250000) });
      await ben.guard.answer(ben.ownerKey, approved, "approve");
      const other = await hold(ben, { kind: "offer", terms: twd(290000) });
      expect(other).not.toBe(approved);
    });

    it("refuses an approval for 100 TWD used for 100 USD (a held record altered to the other currency)", async () => {
      const { ben } = await strollerRoom(relay.url);
      await mandate(ben, { money: { currency: "USD", cap: 1000 }, require_confirm: ["offer"] });
      const hash = await hold(ben, { kind: "offer", terms: { amount: 100, currency: "USD" } });
      const held = ben.guard.pending()[0]!;
      // The agent cannot make the owner sign; it can rewrite the journal. It swaps the currency under the approved hash.
      await ben.guard.answer(ben.ownerKey, hash, "approve");
      const { readFileSync, writeFileSync } = await import("node:fs");
      const path = ben.guard.journal.path;
      writeFileSync(path, readFileSync(path, "utf8").replace('"currency":"USD"', '"currency":"TWD"'));
      const error = await refusal(() => ben.guard.sendHeld(hash));
      expect(error.code).toBe("E_MANDATE");
      expect(held.submission).toMatchObject({ terms: { currency: "USD" } });
      // Even under a TWD mandate the swapped message is another hash: no approval covers it.
      await mandate(ben, { money: { currency: "TWD", cap: 1000 }, require_confirm: ["offer"] });
      const swapped = await refusal(() => ben.guard.sendHeld(hash));
      expect(swapped.code).toBe("E_HELD");
      expect(swapped.details!.message_sha256).not.toBe(hash);
    });

    it("lets a later rejection win over an approval", async () => {
      const { ben } = await strollerRoom(relay.url);
      await mandate(ben, { require_confirm: ["say"] });
      const hash = await hold(ben, { kind: "say", body: "hello" });
      await ben.guard.answer(ben.ownerKey, hash, "approve");
      await ben.guard.answer(ben.ownerKey, hash, "reject");
      expect(await refusal(() => ben.guard.sendHeld(hash))).toMatchObject({
        code: "E_GATE",
        details: { reason: "rejected" },
      });
      expect(ben.guard.pending()).toEqual([]);
    });

    it("ignores an answer signed by a key that is not the seat's owner", async () => {
      const { sara, ben } = await strollerRoom(relay.url);
      await mandate(ben, { require_confirm: ["say"] });
      const hash = await hold(ben, { kind: "say", body: "hello" });
      expect((await refusal(() => ben.guard.answer(sara.ownerKey, hash, "approve"))).code).toBe("E_BAD_SIGNATURE");
      // Written into the journal anyway (as an agent could), it does not count.
      const { signGateAnswer } = await import("../../../src/owner/index.js");
      ben.guard.journal.append(
        await signGateAnswer(sara.ownerKey, {
          table: ben.client.table,
          seat: ben.seat,
          message_sha256: hash,
          verdict: "approve",
          nonce: "forged-approval-000001",
        }),
      );
      expect((await refusal(() => ben.guard.sendHeld(hash))).code).toBe("E_HELD");
    });
  });

  it("keeps the approval spent when the send's outcome is unknown", async () => {
    let fail = false;
    const flaky: FetchLike = async (input, init) => {
      if (fail && init?.method === "POST" && input.endsWith("/entries")) throw new TypeError("connection reset");
      return fetch(input, init);
    };
    const { ben } = await strollerRoom(relay.url, { fetch: flaky });
    await mandate(ben, { require_confirm: ["say"] });
    const hash = await hold(ben, { kind: "say", body: "hello" });
    await ben.guard.answer(ben.ownerKey, hash, "approve");
    fail = true;
    expect((await refusal(() => ben.guard.sendHeld(hash))).code).toBe("E_NETWORK");
    expect(ben.guard.journal.ofType("send_failed").at(-1)).toMatchObject({
      message_sha256: hash,
      outcome: "unknown",
      code: "E_NETWORK",
    });
    fail = false;
    expect(await refusal(() => ben.guard.sendHeld(hash))).toMatchObject({
      code: "E_GATE",
      details: { reason: "spent" },
    });
  });
});

describe("when a held message cannot be sent any more", () => {
  it("answers a second send of a sent message with E_GATE naming its entry, even once the mandate no longer holds the kind", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { require_confirm: ["say"] });
    const hash = await hold(ben, { kind: "say", body: "hello" });
    await ben.guard.answer(ben.ownerKey, hash, "approve");
    const sent = await ben.guard.sendHeld(hash);
    await mandate(ben, { require_confirm: [] });
    const error = await refusal(() => ben.guard.sendHeld(hash));
    expect(error).toMatchObject({ code: "E_GATE", details: { reason: "spent", seq: sent.seq } });
    expect(error.message).toContain(`already sent as entry #${sent.seq}`);
    expect(ben.guard.journal.ofType("sent").filter((r) => r.message_sha256 === hash)).toHaveLength(1);
  });

  it("never sends a message the owner rejected, even once the mandate no longer holds the kind", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { require_confirm: ["say"] });
    const hash = await hold(ben, { kind: "say", body: "hello" });
    await ben.guard.answer(ben.ownerKey, hash, "reject");
    await mandate(ben, { require_confirm: [] });
    const head = (await ben.client.head()).seq;
    const error = await refusal(() => ben.guard.sendHeld(hash));
    expect(error).toMatchObject({ code: "E_GATE", details: { reason: "rejected" } });
    expect(error.message).toMatch(/the owner rejected held message [0-9a-f]{16}…; it will never be sent/);
    expect((await ben.client.head()).seq).toBe(head);
  });

  it.each([
    ["an accept of an offer that expired while it waited", "the offer it answers"],
    ["an offer whose own expiry passed while it waited", "its own expiry passed"],
  ])("refuses %s as expired, sending nothing and spending no approval", async (what, why) => {
    const { sara, ben } = await strollerRoom(relay.url);
    const expires = Date.now() + 60_000;
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { require_confirm: ["accept", "offer"] });
    const ask = leafAt(sara, (await sara.guard.send({ kind: "offer", terms: twd(280000), expires })).seq);
    const hash = await hold(
      ben,
      what.startsWith("an accept")
        ? { kind: "accept", offer: await ask }
        : { kind: "offer", terms: twd(250000), expires },
    );
    const approval = await ben.guard.answer(ben.ownerKey, hash, "approve");
    const late = new GuardedSeat({
      client: ben.client,
      seat: ben.seat,
      signer: await keyOf("seat:ben-bot"),
      home: ben.home,
      clock: () => expires + 1,
    });
    const head = (await ben.client.head()).seq;
    const error = await refusal(() => late.sendHeld(hash));
    expect(error).toMatchObject({ code: "E_GATE", details: { reason: "expired" } });
    expect(error.message).toContain(why);
    expect(error.message).toContain("no approval was spent");
    expect(ben.guard.journal.spent(approval.nonce)).toBe(false);
    expect((await ben.client.head()).seq).toBe(head);
  });

  it("answers a hash never held with E_GATE unknown", async () => {
    const { ben } = await strollerRoom(relay.url);
    expect(await refusal(() => ben.guard.sendHeld("ab".repeat(32)))).toMatchObject({
      code: "E_GATE",
      details: { reason: "unknown" },
    });
  });
});

describe("a loosened mandate", () => {
  it("gates every accept, grant and priced offer, but not a say, until the owner clears it", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 320000 } });
    const ask = await offerFrom(sara, twd(310000));
    expect((await refusal(() => ben.guard.send({ kind: "accept", offer: ask }))).details).toMatchObject({
      why: "loosened",
    });
    expect((await refusal(() => ben.guard.send({ kind: "offer", terms: twd(300000) }))).details).toMatchObject({
      why: "loosened",
    });
    expect(
      (
        await refusal(() =>
          ben.guard.send({ kind: "grant", grantee: "sara-bot", scope: "pickup", expires: Date.now() + 60_000 }),
        )
      ).code,
    ).toBe("E_HELD");
    expect((await ben.guard.send({ kind: "offer", terms: { text: "can you deliver?" } })).seq).toBeGreaterThan(0);
    expect((await ben.guard.send({ kind: "say", body: "thinking" })).seq).toBeGreaterThan(0);
    await mandate(ben, { money: { currency: "TWD", cap: 320000 } }, { clearLoosened: true });
    expect((await ben.guard.send({ kind: "accept", offer: ask })).seq).toBeGreaterThan(0);
  });
});

describe("the transcript the gate commits on", () => {
  it("refuses to commit when the relay altered a body under the seat's real signature", async () => {
    let tamper = false;
    const lying: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      if (!tamper || !input.includes("/export")) return response;
      const text = await alteredExport(await response.text());
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const { sara, ben } = await strollerRoom(relay.url, { fetch: lying });
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const ask = await offerFrom(sara, twd(280000));
    tamper = true;
    const error = await refusal(() => ben.guard.send({ kind: "accept", offer: ask }));
    expect(error).toMatchObject({ code: "E_GATE", details: { reason: "unverified", verdict: "REFUTED" } });
    expect(error.message).toMatch(/signature does not verify/);
  });

  it("refuses to commit on a served prefix of the transcript (an older export, after a newer head was seen) with E_FORK, the truncation kept as evidence", async () => {
    const relaying = staleExports();
    const { sara, ben } = await strollerRoom(relay.url, { fetch: relaying.fetch });
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    await ben.guard.transcript();
    const ask = await offerFrom(sara, twd(280000));
    await sara.guard.send({ kind: "withdraw", offer: ask });
    await ben.client.head();
    relaying.serveStale();
    const error = await refusal(() => ben.guard.send({ kind: "accept", offer: ask }));
    expect(error).toMatchObject({ code: "E_FORK", details: { evidence: { kind: "truncation" } } });
    expect(error.message).toMatch(/^truncation: /);
  });
});
