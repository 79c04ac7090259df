/**
 * Rooms over HTTP (docs/SPEC.md §5.10): the creator's invites with codes, joins by code, ejection
 * as an entry, room kinds through the relay, the state rebuilt identically after eviction, and an
 * export that verifies CLEAN. Every refusal leaves the head where it was.
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  dealStatement,
  dealStatus,
  InviteResponseSchema,
  signStatement,
  verifyExport,
  type Entry,
  type Signer,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";
import { twd } from "../support/room-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

const stub = (id: string) => env.TABLES.getByName(id);
const folded = (id: string) => runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state));

async function entries(room: RoomHttp): Promise<Entry[]> {
  const reply = await relay.read(room.id, `/tables/${room.id}/entries?from=1`, room.k.sara, { owner: "sara" });
  return reply.body.items;
}

describe("room invites", () => {
  it("issues an invite with a code, which looks up the room and admits a new owner as a party", async () => {
    const room = await RoomHttp.open(relay, "room-invite-1");
    const issued = await room.invite();
    expect(issued.status).toBe(201);
    expect(InviteResponseSchema.safeParse(issued.body).success).toBe(true);
    expect(issued.body.code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const looked = await room.lookup(issued.body.code.replace("-", "").toLowerCase());
    expect(looked).toEqual({
      status: 200,
      body: { table: room.id, invite: issued.body.invite, expires: issued.body.expires },
    });
    const joined = await room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite);
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ seat: "ben-bot" });
    const last = (await entries(room)).at(-1)!;
    expect(last).toMatchObject({
      subkind: "seat_joined",
      author: { key: room.k.ben.publicKeyText },
      data: { join: { invite: issued.body.invite } },
    });
    // The party reads the room as an owner, with its own key.
    expect((await relay.read(room.id, `/tables/${room.id}/head`, room.k.ben, { owner: "ben" })).status).toBe(200);
    expect((await relay.read(room.id, `/tables/${room.id}/entries?from=1`, room.k.ben, { owner: "ben" })).status).toBe(
      200,
    );
  });

  it("keeps the code out of the ledger", async () => {
    const room = await RoomHttp.open(relay, "room-invite-secret");
    const issued = await room.invite();
    const text = (await relay.read(room.id, `/tables/${room.id}/export`, room.k.sara, { owner: "sara" }))
      .body as string;
    expect(text).toContain(issued.body.invite);
    expect(text).not.toContain(issued.body.code);
    expect(text).not.toContain(issued.body.code.replace("-", ""));
  });

  it("answers a retried invite with the same entry and the same code", async () => {
    const room = await RoomHttp.open(relay, "room-invite-retry");
    const fields = { invite: "retried-invite-0001", expires: Date.now() + 60_000 };
    const first = await room.invite(fields);
    const again = await room.invite(fields);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ seq: first.body.seq, code: first.body.code });
  });

  it("rotates an invite: the old code stops working, the new one admits", async () => {
    const room = await RoomHttp.open(relay, "room-invite-rotate");
    const old = await room.invite();
    const rotated = await room.invite({ replaces: old.body.invite });
    expect(rotated.status).toBe(201);
    expect(rotated.body.code).not.toBe(old.body.code);
    const refused = await headUnmoved(relay, room.id, () =>
      room.joinWith(old.body.code, room.k.ben, "ben", "ben-bot", old.body.invite, "203.0.113.7"),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("E_INVITE");
    expect(
      (await room.joinWith(rotated.body.code, room.k.ben, "ben", "ben-bot", rotated.body.invite, "203.0.113.7")).status,
    ).toBe(201);
  });

  describe("when an invite or a join by invite is refused", () => {
    it("spends the code with the join it admits: a second owner cannot use it", async () => {
      const room = await RoomHttp.open(relay, "room-invite-once");
      const issued = await room.invite();
      expect((await room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite)).status).toBe(
        201,
      );
      const second = await headUnmoved(relay, room.id, () =>
        room.joinWith(issued.body.code, room.k.cleo, "cleo", "cleo-bot", issued.body.invite, "203.0.113.8"),
      );
      expect(second.body.error.code).toBe("E_INVITE");
    });

    it("refuses a join by invite on the plain join route, which has no code", async () => {
      const room = await RoomHttp.open(relay, "room-invite-plain");
      const issued = await room.invite();
      const body = await room.invitedJoin(room.k.ben, "ben", "ben-bot", issued.body.invite);
      const reply = await headUnmoved(relay, room.id, () => relay.request("POST", `/tables/${room.id}/join`, body));
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe("E_INVITE");
    });

    it("refuses a code used with a join naming another invite", async () => {
      const room = await RoomHttp.open(relay, "room-invite-mismatch");
      const first = await room.invite();
      const second = await room.invite();
      const reply = await headUnmoved(relay, room.id, () =>
        room.joinWith(first.body.code, room.k.ben, "ben", "ben-bot", second.body.invite, "203.0.113.9"),
      );
      expect(reply.body.error.code).toBe("E_INVITE");
    });

    it("refuses an invite signed by anyone but the creator", async () => {
      const room = await RoomHttp.open(relay, "room-invite-forged");
      await room.admit(room.k.ben, "ben", "ben-bot");
      const reply = await headUnmoved(relay, room.id, () => room.invite({ by: room.k.ben }));
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe("E_BAD_SIGNATURE");
    });

    it("refuses an invite for a table that is not a room", async () => {
      const room = await RoomHttp.open(relay, "room-invite-notroom", { notRoom: true });
      const reply = await headUnmoved(relay, room.id, () => room.invite());
      expect(reply.body.error.code).toBe("E_NOT_ALLOWED");
    });

    it("refuses an invite body that is not the schema's, naming the field", async () => {
      const room = await RoomHttp.open(relay, "room-invite-schema");
      const reply = await headUnmoved(relay, room.id, () =>
        relay.request("POST", `/tables/${room.id}/invites`, { statement: { scope: "invite" }, sig: "x" }),
      );
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe("E_SCHEMA");
    });
  });
});

describe("negotiating in a room over HTTP", () => {
  it("runs offers to a deal, ejects a seat as an entry, and exports a CLEAN ledger", async () => {
    const room = await RoomHttp.open(relay, "room-deal-1");
    expect((await room.admit(room.k.ben, "ben", "ben-bot")).status).toBe(201);
    expect((await room.admit(room.k.cleo, "cleo", "cleo-bot")).status).toBe(201);
    expect((await room.write("sara-bot", { kind: "offer", terms: twd(360000) })).status).toBe(201);
    const offer = (await entries(room)).at(-1)!.leaf;
    const mismatch = await headUnmoved(relay, room.id, () =>
      room.write("ben-bot", { kind: "accept", offer, terms: twd(100) }),
    );
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe("E_TERMS_MISMATCH");
    expect((await room.write("ben-bot", { kind: "counter", offer, terms: twd(250000) })).status).toBe(201);
    const counter = (await entries(room)).at(-1)!.leaf;
    expect((await room.write("sara-bot", { kind: "counter", offer: counter, terms: twd(280000) })).status).toBe(201);
    const final = (await entries(room)).at(-1)!.leaf;
    expect((await room.write("ben-bot", { kind: "accept", offer: final })).status).toBe(201);
    expect((await room.eject("cleo-bot")).status).toBe(201);
    const left = (await entries(room)).slice(-2);
    expect(left).toMatchObject([
      { subkind: "seat_ejected", data: { seat: "cleo-bot", by: "sara" } },
      { subkind: "seat_left", data: { seat: "cleo-bot", reason: "ejected" } },
    ]);
    const ejected = await headUnmoved(relay, room.id, () =>
      room.write("cleo-bot", { kind: "close", outcome: "no_deal" }),
    );
    expect(ejected.body.error.code).toBe("E_UNKNOWN_SEAT");
    expect((await room.write("sara-bot", { kind: "close", outcome: "deal", offer: final })).status).toBe(201);
    expect((await entries(room)).at(-1)).toMatchObject({ subkind: "table_closed", data: { reason: "deal" } });
    const text = (await relay.read(room.id, `/tables/${room.id}/export`, room.k.ben, { owner: "ben" })).body as string;
    const relayKey = (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key;
    expect((await verifyExport(text, { relayKey })).verdict).toBe("CLEAN");
  });

  it("refuses an eject by a party that is not the creator", async () => {
    const room = await RoomHttp.open(relay, "room-eject-forged");
    await room.admit(room.k.ben, "ben", "ben-bot");
    const reply = await headUnmoved(relay, room.id, () => room.eject("sara-bot", room.k.ben));
    expect(reply.body.error.code).toBe("E_BAD_SIGNATURE");
  });

  it("rebuilds the identical room state (invites, parties, offers) after eviction", async () => {
    const room = await RoomHttp.open(relay, "room-evict-1");
    await room.admit(room.k.ben, "ben", "ben-bot");
    const unused = await room.invite();
    await room.write("sara-bot", { kind: "offer", terms: twd(360000) });
    await room.write("sara-bot", {
      kind: "grant",
      grantee: "ben-bot",
      scope: "pickup:address",
      expires: Date.now() + 60_000,
    });
    const before = await folded(room.id);
    await evictDurableObject(stub(room.id));
    expect(await folded(room.id)).toBe(before);
    // The invite issued before the eviction still admits, and the spent one still does not.
    expect((await room.joinWith(unused.body.code, room.k.cleo, "cleo", "cleo-bot", unused.body.invite)).status).toBe(
      201,
    );
    const state = await runInDurableObject(stub(room.id), (instance: TableDO) => instance.table.state!.room!);
    expect(Object.keys(state.parties).sort()).toEqual(["ben", "cleo"]);
  });
});

describe("a deal both owners sign over HTTP", () => {
  /** `seat` records the deal_sign on `offer` signed by `owner`, naming `as` (default `owner`'s own key). */
  async function sign(room: RoomHttp, seat: string, offer: string, owner: Signer, as: string = owner.publicKeyText) {
    const deal = await runInDurableObject(
      stub(room.id),
      (instance: TableDO) => instance.table.state!.room!.deals[offer]!.terms_sha256,
    );
    const owner_sig = await signStatement(owner, "deal", dealStatement(room.id, deal));
    return room.write(seat, { kind: "deal_sign", offer, deal, owner_key: as, owner_sig });
  }

  it("refuses an owner signature by another key (E_BAD_SIGNATURE), records both owners' own, and folds the done deal identically after eviction", async () => {
    const room = await RoomHttp.open(relay, "room-deal-sign-1");
    await room.admit(room.k.ben, "ben", "ben-bot");
    await room.admit(room.k.cleo, "cleo", "cleo-bot");
    await room.write("sara-bot", { kind: "offer", terms: twd(280000) });
    const offer = (await entries(room)).at(-1)!.leaf;
    await room.write("ben-bot", { kind: "accept", offer });
    const forged = await headUnmoved(relay, room.id, () =>
      sign(room, "ben-bot", offer, room.k.cleo, room.k.ben.publicKeyText),
    );
    expect(forged.status).toBe(401);
    expect(forged.body.error).toMatchObject({
      code: "E_BAD_SIGNATURE",
      message: expect.stringMatching(/deal signature/),
    });
    expect((await sign(room, "ben-bot", offer, room.k.ben)).status).toBe(201);
    expect((await sign(room, "sara-bot", offer, room.k.sara)).status).toBe(201);
    const before = await folded(room.id);
    await evictDurableObject(stub(room.id));
    expect(await folded(room.id)).toBe(before);
    const deal = await runInDurableObject(
      stub(room.id),
      (instance: TableDO) => instance.table.state!.room!.deals[offer]!,
    );
    expect(dealStatus(deal)).toBe("done");
  });
});
