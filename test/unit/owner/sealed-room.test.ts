/**
 * End-to-end encrypted rooms on a real relay (docs/SPEC.md §5.12, docs/ROOMS.md): the room key is
 * made in the creator's home and reaches the joiner only in the invite link's fragment; bodies and
 * terms text are sealed before signing, so the ledger, the chain and every signature cover the
 * ciphertext; the relay refuses plaintext; the guards judge the plaintext; a seat without the key
 * sends nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  inviteLink,
  loadRoomKey,
  openedProjection,
  openedSummary,
  openText,
  parseInviteLink,
  roomKeyPath,
  roomSummary,
  sealText,
  UNREADABLE,
} from "../../../src/owner/index.js";
import { isSealedText, signNote } from "../../../src/protocol/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, refusedAt, type Side, strollerRoom } from "../../support/room-client.js";
import { keyOf } from "../../support/table-fixture.js";

let shared: LocalRelay;
beforeAll(async () => {
  shared = await sharedRelay();
}, 60_000);
const relay = () => shared;

/** `side`'s seat reads its projection, opened with its home's room key. */
async function readOpened(side: Side) {
  const signer = await keyOf(`seat:${side.seat}`);
  return openedProjection(
    side.home,
    side.client.table,
    await side.client.projection({ signer, as: { seat: side.seat } }, 0),
  );
}

describe("an end-to-end encrypted room", () => {
  it("round-trips: sealed on the wire and in the ledger, opened on the other owner's machine, the export CLEAN", async () => {
    const { sara, ben, id } = await strollerRoom(relay().url, { e2e: true });
    await mandate(sara, { money: { currency: "TWD", cap: 500000, floor: 250000 } });
    expect(readFileSync(roomKeyPath(ben.home, id), "utf8")).toBe(readFileSync(roomKeyPath(sara.home, id), "utf8"));
    const sent = await sara.guard.send({
      kind: "offer",
      terms: { amount: 280000, currency: "TWD", text: "stroller, pick up Saturday" },
      body: "Barely used, rain cover included.",
    });

    const { entries, report } = await ben.guard.transcript();
    const offer = entries.find((e) => e.seq === sent.seq);
    if (offer?.kind !== "offer") throw new Error("no offer");
    expect(isSealedText(offer.body) && isSealedText(offer.terms.text!)).toBe(true);
    expect(offer.terms.amount).toBe(280000);
    expect(JSON.stringify(entries)).not.toMatch(/Barely used|Saturday/);
    expect(report.verdict).toBe("CLEAN");

    const read = (await readOpened(ben)).tail.find((e) => e.seq === sent.seq)!;
    expect(read.body).toBe("Barely used, rain cover included.");
    expect((read.data!.terms as { text: string }).text).toBe("stroller, pick up Saturday");
    const room = await openedSummary(ben.home, roomSummary(await ben.guard.transcript(), Date.now()));
    expect(room.e2e).toBe(true);
    expect(room.offers[0]!.terms.text).toBe("stroller, pick up Saturday");
  });

  it("binds a sealed text to its table, seat and field: moved anywhere else it does not open", async () => {
    const { sara, id } = await strollerRoom(relay().url, { e2e: true });
    const key = (await loadRoomKey(sara.home, id))!;
    const sealed = await sealText(key, { table: id, seat: "sara-bot", field: "body" }, "only here");
    expect(await openText(key, { table: id, seat: "sara-bot", field: "body" }, sealed)).toBe("only here");
    expect(await openText(key, { table: id, seat: "ben-bot", field: "body" }, sealed)).toBeNull();
    expect(await openText(key, { table: `${id}-x`, seat: "sara-bot", field: "body" }, sealed)).toBeNull();
    expect(await openText(key, { table: id, seat: "sara-bot", field: "terms.text" }, sealed)).toBeNull();
  });

  it("shows a text sealed under another key as unreadable, never as ciphertext", async () => {
    const { sara, ben, id } = await strollerRoom(relay().url, { e2e: true });
    const other = await strollerRoom(relay().url, { e2e: true });
    const foreign = (await loadRoomKey(other.sara.home, other.id))!;
    const body = await sealText(foreign, { table: id, seat: "sara-bot", field: "body" }, "from another room's key");
    const sent = await sara.client.submit(await keyOf("seat:sara-bot"), "sara-bot", { kind: "say", body });
    expect((await readOpened(ben)).tail.find((e) => e.seq === sent.seq)!.body).toBe(UNREADABLE);
  });

  it("keeps the room key out of everything but the link's fragment", async () => {
    const { sara, id } = await strollerRoom(relay().url, { e2e: true });
    const key = (await loadRoomKey(sara.home, id))!.text;
    const text = inviteLink({
      relay: relay().url,
      relayKey: sara.client.tracker.relayKey,
      code: "ABCD-EFGH",
      roomKey: key,
    });
    expect(new URL(text).hash).toContain(`room_key=${key}`);
    expect(parseInviteLink(text).roomKey).toBe(key);
    const { text: exported } = await sara.client.exportLedger({
      signer: await keyOf("seat:sara-bot"),
      as: { seat: "sara-bot" },
    });
    expect(exported).not.toContain(key);
  });

  describe("when plaintext is sent to it", () => {
    it("refuses a plaintext body or terms text at the relay (E_PLAINTEXT), written past the guards", async () => {
      const { sara } = await strollerRoom(relay().url, { e2e: true });
      const signer = await keyOf("seat:sara-bot");
      const body = await refusedAt(sara, () =>
        sara.client.submit(signer, "sara-bot", { kind: "say", body: "in the clear" }),
      );
      expect(body.code).toBe("E_PLAINTEXT");
      expect(body.details).toMatchObject({ path: "body" });
      const terms = await refusedAt(sara, () =>
        sara.client.submit(signer, "sara-bot", {
          kind: "offer",
          terms: { amount: 1, currency: "TWD", text: "in the clear" },
        }),
      );
      expect(terms.code).toBe("E_PLAINTEXT");
      expect(terms.details).toMatchObject({ path: "terms.text" });
    });

    it("refuses a plaintext note to the owner (E_PLAINTEXT)", async () => {
      const { sara, id } = await strollerRoom(relay().url, { e2e: true });
      const request = await signNote(await keyOf("seat:sara-bot"), {
        table: id,
        seat: "sara-bot",
        text: "in the clear",
        nonce: "n".repeat(22),
        ts: Date.now(),
      });
      const error = await refusedAt(sara, () => sara.client.http.noteOwner(id, request));
      expect(error.code).toBe("E_PLAINTEXT");
    });
  });

  describe("when the guards judge a message", () => {
    it("checks never_disclose on the plaintext before it is sealed", async () => {
      const { sara } = await strollerRoom(relay().url, { e2e: true });
      await mandate(sara, { never_disclose: ["250000"] });
      const error = await refusedAt(sara, () => sara.guard.send({ kind: "say", body: "my floor is 250000" }));
      expect(error.code).toBe("E_MANDATE");
      expect(error.details).toMatchObject({ reason: "disclose" });
    });

    it("reads the seat's earlier sealed messages opened, so a secret split over two of them is caught", async () => {
      const { sara } = await strollerRoom(relay().url, { e2e: true });
      await mandate(sara, { never_disclose: ["2400"] });
      expect((await sara.guard.send({ kind: "say", body: "my floor starts with twenty-four" })).seq).toBeGreaterThan(0);
      const error = await refusedAt(sara, () => sara.guard.send({ kind: "say", body: "hundred" }));
      expect(error.details).toMatchObject({ reason: "disclose", form: "split" });
    });

    it("sends a note to the owner sealed, and keeps the plaintext in the journal", async () => {
      const { sara } = await strollerRoom(relay().url, { e2e: true });
      const answer = await sara.guard.tellOwner("ben asked twice about the rain cover");
      expect(answer.id).toContain(":note:sara-bot:");
      expect(sara.guard.journal.ofType("owner_note").at(-1)).toMatchObject({
        text: "ben asked twice about the rain cover",
      });
    });
  });

  describe("when this machine has no room key", () => {
    it("refuses to send: a seat that joined by the code alone writes nothing, and says how to get the key", async () => {
      const { ben, id } = await strollerRoom(relay().url, { e2e: true, byCode: true });
      expect(existsSync(roomKeyPath(ben.home, id))).toBe(false);
      const error = await refusedAt(ben, () => ben.guard.send({ kind: "say", body: "hello" }));
      expect(error.code).toBe("E_KEY_FILE");
      expect(error.message).toMatch(/full invite link/);
      expect(ben.guard.journal.ofType("refusal").at(-1)).toMatchObject({ guard: "e2e", reason: "no_room_key" });
    });

    it("refuses a note to the owner before anything leaves the machine", async () => {
      const { ben } = await strollerRoom(relay().url, { e2e: true, byCode: true });
      await expect(ben.guard.tellOwner("the seller seems keen")).rejects.toMatchObject({ code: "E_KEY_FILE" });
      expect(ben.guard.journal.ofType("owner_note")).toEqual([]);
    });
  });
});
