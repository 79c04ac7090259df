/**
 * Revoking a seat at the relay (docs/SPEC.md §5.13): the owner-signed POST /tables/:id/revoke, then
 * the leaked key refused on every path (HTTP writes and reads, new and open sockets, a write queued
 * in the object behind the revocation), the name seated again with a new key, and all of it after an
 * eviction.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize, revokeDraft, signSubmission, type Signer } from "../../src/protocol/index.js";
import { signRevoke } from "../../src/client/owner-requests.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { admitAndAppend } from "../../durable-objects/table/writing/writes.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { keyOf, nonceOf, type Cast } from "../support/table-fixture.js";

const fetch = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetch);
const stub = (id: string) => env.TABLES.getByName(id);

/** `owner`'s signed revocation of `seat` held by `seatKey` (signed by `signer`, default the owner's own key). */
async function revokeBody(
  k: Cast,
  id: string,
  owner: "tao" | "jenny" | "ops",
  seat: string,
  seatKey: Signer,
  opts: { signer?: Signer; nonce?: string } = {},
) {
  return signRevoke(opts.signer ?? k[owner], {
    table: id,
    owner,
    seat,
    seat_key: seatKey.publicKeyText,
    nonce: opts.nonce ?? nonceOf(`revoke:${id}:${seat}`),
  });
}

/** Revokes bot-tao (tao's seat, holding the floor) at debate table `id`; returns the reply. */
async function revokeTao(k: Cast, id: string) {
  const reply = await relay.request(
    "POST",
    `/tables/${id}/revoke`,
    await revokeBody(k, id, "tao", "bot-tao", k.botTao),
  );
  expect(reply.status).toBe(201);
  return reply;
}

/** A socket answering the challenge as `seat` with `key`; resolves with the error frame and the close it got. */
async function refusedSocket(id: string, seat: string, key: Signer) {
  const ws = await TestSocket.open(fetch, id);
  await ws.answer(id, seat, key);
  return { error: await ws.next("error"), closed: await ws.whenClosed() };
}

describe("revoking a seat", () => {
  it("appends seat_revoked and seat_left; a retried request returns the same seq", async () => {
    const id = "revoke-entries";
    const k = await seatedDebate(relay, id);
    const body = await revokeBody(k, id, "tao", "bot-tao", k.botTao);
    const first = await relay.request("POST", `/tables/${id}/revoke`, body);
    expect(first.status).toBe(201);
    const again = await headUnmoved(relay, id, () => relay.request("POST", `/tables/${id}/revoke`, body));
    expect(again.body.seq).toBe(first.body.seq);
    const twice = await headUnmoved(relay, id, async () =>
      relay.request(
        "POST",
        `/tables/${id}/revoke`,
        await revokeBody(k, id, "tao", "bot-tao", k.botTao, { nonce: nonceOf("twice") }),
      ),
    );
    expect(twice.body.error.code).toBe("E_NOT_ALLOWED");
    const entries = await relay.read(id, `/tables/${id}/entries`, k.tao, { owner: "tao" });
    const kinds = entries.body.items.slice(first.body.seq - 1).map((e: { subkind?: string }) => e.subkind);
    expect(kinds).toEqual(["seat_revoked", "seat_left", "floor"]);
  });

  it("refuses the leaked key's HTTP writes and reads with E_REVOKED, and the ledger does not move", async () => {
    const id = "revoke-http";
    const k = await seatedDebate(relay, id);
    await revokeTao(k, id);
    const write = await headUnmoved(relay, id, () =>
      relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "still me" }),
    );
    expect(write).toMatchObject({ status: 403, body: { error: { code: "E_REVOKED", details: { seat: "bot-tao" } } } });
    const read = await relay.read(id, `/tables/${id}/projection`, k.botTao, { seat: "bot-tao" });
    expect(read).toMatchObject({ status: 403, body: { error: { code: "E_REVOKED" } } });
  });

  it("closes the seat's open socket at once with E_REVOKED; a new socket with the key is refused the same way", async () => {
    const id = "revoke-socket";
    const k = await seatedDebate(relay, id);
    const ws = await TestSocket.open(fetch, id);
    await ws.auth(id, "bot-tao", k.botTao);
    await revokeTao(k, id);
    expect(await ws.whenClosed()).toEqual({ code: 4403, reason: "E_REVOKED" });
    expect(await ws.next("error")).toMatchObject({ error: { code: "E_REVOKED", details: { seat: "bot-tao" } } });
    const again = await refusedSocket(id, "bot-tao", k.botTao);
    expect(again.error).toMatchObject({ error: { code: "E_REVOKED" } });
    expect(again.closed.code).toBe(4403);
    expect(again.closed.reason).toMatch(/^E_REVOKED: /);
  });

  it("closes with E_REVOKED a socket whose write reaches the object after the revocation, and appends nothing for it", async () => {
    const id = "revoke-socket-frame";
    const k = await seatedDebate(relay, id);
    const ws = await TestSocket.open(fetch, id);
    await ws.auth(id, "bot-tao", k.botTao);
    const revoke = await revokeBody(k, id, "tao", "bot-tao", k.botTao);
    // Appended without the route's closing of sockets: the socket is still open when its next frame arrives.
    await runInDurableObject(stub(id), (instance: TableDO) =>
      admitAndAppend(instance.table, revokeDraft(instance.table.state!, revoke.revoke, revoke.sig)),
    );
    const request = await signSubmission(k.botTao, {
      table: id,
      seat: "bot-tao",
      nonce: nonceOf(`${id}:late`),
      kind: "say",
      body: "too late",
    });
    await headUnmoved(relay, id, async () => {
      ws.send({ type: "submit", id: "w1", request });
      expect(await ws.whenClosed()).toEqual({ code: 4403, reason: "E_REVOKED" });
    });
  });

  it("refuses a write queued in the object behind the revocation, and appends nothing for it", async () => {
    const id = "revoke-queued";
    const k = await seatedDebate(relay, id);
    const say = await signSubmission(k.botTao, {
      table: id,
      seat: "bot-tao",
      nonce: nonceOf(`${id}:queued`),
      kind: "say",
      body: "queued",
    });
    const revoke = await revokeBody(k, id, "tao", "bot-tao", k.botTao);
    const { outcome, seq, revoked } = await runInDurableObject(stub(id), async (instance: TableDO) => {
      // The write is in flight (its signature being checked) when the revocation lands.
      const pending = instance.submit(say);
      const landed = admitAndAppend(instance.table, revokeDraft(instance.table.state!, revoke.revoke, revoke.sig));
      return { outcome: await pending, seq: instance.table.state!.seq, revoked: landed.appended.at(-1)!.seq };
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: "E_REVOKED" } });
    expect(seq).toBe(revoked);
  });

  it("seats the name again for its owner with a new key; the old key signing for it is still E_REVOKED", async () => {
    const id = "revoke-reseat";
    const k = await seatedDebate(relay, id);
    await revokeTao(k, id);
    const fresh = await keyOf("seat:bot-tao:fresh");
    expect((await relay.join(id, k.tao, "tao", "bot-tao", fresh)).status).toBe(201);
    const old = await headUnmoved(relay, id, () =>
      relay.say(id, k.botTao, { seat: "bot-tao", kind: "raise_hand", body: "" }),
    );
    expect(old.body.error.code).toBe("E_REVOKED");
    expect((await relay.read(id, `/tables/${id}/projection`, k.botTao, { seat: "bot-tao" })).body.error.code).toBe(
      "E_REVOKED",
    );
    expect((await refusedSocket(id, "bot-tao", k.botTao)).error).toMatchObject({ error: { code: "E_REVOKED" } });
    expect((await relay.say(id, fresh, { seat: "bot-tao", kind: "raise_hand", body: "" })).status).toBe(201);
    expect((await relay.join(id, k.tao, "tao", "bot-tao-2", k.botTao)).body.error.code).toBe("E_REVOKED");
  });

  it("rebuilds the same state and revoked keys after an eviction, and still refuses the key", async () => {
    const id = "revoke-evicted";
    const k = await seatedDebate(relay, id);
    await revokeTao(k, id);
    const before = await runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state));
    await evictDurableObject(stub(id));
    expect(await runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state))).toBe(before);
    expect(JSON.parse(before).revoked).toMatchObject([{ seat: "bot-tao", owner: "tao", key: k.botTao.publicKeyText }]);
    expect(
      (await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "after the wake" })).body.error.code,
    ).toBe("E_REVOKED");
    expect((await refusedSocket(id, "bot-tao", k.botTao)).error).toMatchObject({ error: { code: "E_REVOKED" } });
  });

  describe("when the revocation is not the seat owner's", () => {
    it.each([
      ["E_FORBIDDEN", "another owner's", (k: Cast, id: string) => revokeBody(k, id, "jenny", "bot-tao", k.botTao)],
      [
        "E_BAD_SIGNATURE",
        "signed by another key",
        (k: Cast, id: string) => revokeBody(k, id, "tao", "bot-tao", k.botTao, { signer: k.jenny }),
      ],
      [
        "E_NOT_OWNER",
        "by a name that is no owner",
        async (k: Cast, id: string) => {
          const signed = await revokeBody(k, id, "tao", "bot-tao", k.botTao);
          return { ...signed, revoke: { ...signed.revoke, owner: "mallory" } };
        },
      ],
      ["E_UNKNOWN_SEAT", "for an unknown seat", (k: Cast, id: string) => revokeBody(k, id, "tao", "nobody", k.botTao)],
    ])("refuses with %s (%s) and the ledger does not move", async (code, _what, body) => {
      const id = `revoke-refused-${code.toLowerCase().replace(/_/g, "-")}`;
      const k = await seatedDebate(relay, id);
      const reply = await headUnmoved(relay, id, async () =>
        relay.request("POST", `/tables/${id}/revoke`, await body(k, id)),
      );
      expect(reply.body.error.code).toBe(code);
    });
  });
});
