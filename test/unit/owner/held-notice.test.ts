/**
 * Telling the owner's chat apps of a held message (docs/CHAT-APPS.md "Room news"): when the gate
 * holds a seat's message, the seat's client posts a signed note with `held` (kind, hash, the terms
 * it binds) through the relay's note route, its nonce the message's hash; about an e2e room the
 * note carries no terms and its text is sealed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchLike } from "../../../src/client/index.js";
import { NoteRequestSchema, type NoteRequest } from "../../../src/protocol/index.js";
import { refusal } from "../protocol/fixtures.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, offerFrom, strollerRoom } from "../../support/room-client.js";
import { twd } from "../../support/room-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);
afterAll(async () => {
  await relay?.dispose();
});

/** A fetch that keeps every note request ben's client posts. */
function recording(notes: NoteRequest[]): FetchLike {
  return async (input, init) => {
    if (input.endsWith("/notes") && typeof init?.body === "string")
      notes.push(NoteRequestSchema.parse(JSON.parse(init.body)));
    return fetch(input, init);
  };
}

describe("a held message", () => {
  it("is told to the owner through a held note: its kind, its hash as the nonce, the terms it binds", async () => {
    const notes: NoteRequest[] = [];
    const { sara, ben } = await strollerRoom(relay.url, { fetch: recording(notes) });
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { require_confirm: ["accept"] });
    const offer = await offerFrom(sara, twd(280000, "stroller"));
    const error = await refusal(() => ben.guard.send({ kind: "accept", offer }));
    expect(error.code).toBe("E_HELD");
    const hash = String(error.details!.message_sha256);
    expect(notes.map((n) => n.note)).toMatchObject([
      { seat: "ben-bot", nonce: hash, held: { kind: "accept", message_sha256: hash, terms: twd(280000, "stroller") } },
    ]);
    expect(notes[0]!.note.text).toMatch(/^held for your approval: accept offer #\d+ by sara-bot: 2,800\.00 TWD/);
    expect(ben.guard.journal.ofType("owner_note")).toMatchObject([
      { id: `${ben.client.table}:note:ben-bot:${hash}`, queued: 0 },
    ]);
  });

  it("about an e2e room is told without terms, its text sealed", async () => {
    const notes: NoteRequest[] = [];
    const { sara, ben } = await strollerRoom(relay.url, { fetch: recording(notes), e2e: true });
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { require_confirm: ["accept"] });
    const offer = await offerFrom(sara, twd(280000, "stroller"));
    expect((await refusal(() => ben.guard.send({ kind: "accept", offer }))).code).toBe("E_HELD");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.note.held).toEqual({ kind: "accept", message_sha256: notes[0]!.note.nonce });
    expect(notes[0]!.note.text).toMatch(/^e2e1:/);
    expect(ben.guard.journal.ofType("owner_note")).toMatchObject([{ queued: 0 }]);
  });
});
