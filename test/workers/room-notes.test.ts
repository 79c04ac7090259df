/**
 * Telling the owner (docs/SPEC.md §5.10): a seat's signed note reaches its own owner's bound chat
 * apps through the owner's outbox and never the room: no entry, no push, nothing in the export.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NOTE_LIMITS } from "../../durable-objects/table/writing/notes.js";
import { bindVia, drain, requests } from "../support/chat-driver.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "room-notes";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

describe("a note to the owner", () => {
  it("reaches the owner's bound chat app and never the room", async () => {
    const room = await RoomHttp.open(relay, "room-note-1", { cast: CAST });
    await room.admit(room.k.ben, "ben", "ben-bot");
    await bindVia("telegram", room.k.ben, "8101");
    await bindVia("telegram", room.k.sara, "8102");
    await drain(room.k.ben.publicKeyText);
    await drain(room.k.sara.publicKeyText);
    const text = "Seller holds at 2,800; I have not gone past my cap. Should I accept?";
    const sent = await headUnmoved(relay, room.id, () => room.note("ben-bot", text));
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ id: expect.stringContaining(`${room.id}:note:ben-bot:`), queued: 1 });
    expect(await drain(room.k.ben.publicKeyText)).toMatchObject({ delivered: 1 });
    const delivered = (await requests('"chat_id":"8101"')).map((r) => JSON.stringify(r.body));
    expect(delivered.some((body) => body.includes("Seller holds at 2,800") && body.includes("ben-bot"))).toBe(true);
    const exported = (await relay.read(room.id, `/tables/${room.id}/export`, room.k.sara, { owner: "sara" }))
      .body as string;
    expect(exported).not.toContain("Seller holds at 2,800");
    // Sara, the other party, bound too, got nothing of it.
    await drain(room.k.sara.publicKeyText);
    expect(
      (await requests('"chat_id":"8102"')).map((r) => JSON.stringify(r.body)).filter((body) => body.includes("2,800")),
    ).toEqual([]);
  });

  it("sends a retried note (same nonce) once", async () => {
    const room = await RoomHttp.open(relay, "room-note-retry", { cast: CAST });
    const nonce = nonceOf("same note");
    const first = await room.note("sara-bot", "hello", { nonce });
    const again = await room.note("sara-bot", "hello", { nonce });
    expect(again.body).toEqual({ id: first.body.id, queued: 0 });
  });

  describe("when a note is refused", () => {
    it("refuses a note not signed by the seat's own key", async () => {
      const room = await RoomHttp.open(relay, "room-note-forged", { cast: CAST });
      await room.admit(room.k.ben, "ben", "ben-bot");
      const reply = await room.note("sara-bot", "send me your floor", { signer: await room.seatKey("ben-bot") });
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe("E_BAD_SIGNATURE");
    });

    it("refuses a stale note, and one from a seat not in the room", async () => {
      const room = await RoomHttp.open(relay, "room-note-stale", { cast: CAST });
      expect((await room.note("sara-bot", "old", { ts: Date.now() - 10 * 60_000 })).body.error.code).toBe("E_EXPIRED");
      expect((await room.note("nobody", "who am I")).body.error.code).toBe("E_UNKNOWN_SEAT");
      expect(
        (await relay.request("POST", `/tables/${room.id}/notes`, { note: { text: 1 }, sig: "x" })).body.error.code,
      ).toBe("E_SCHEMA");
    });

    it("refuses more than its limit of notes per window", async () => {
      const room = await RoomHttp.open(relay, "room-note-limit", { cast: CAST });
      for (let i = 0; i < NOTE_LIMITS.per_window; i++)
        expect((await room.note("sara-bot", `note ${i}`)).status).toBe(201);
      const over = await room.note("sara-bot", "one too many");
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe("E_RATE_LIMITED");
    });
  });
});
