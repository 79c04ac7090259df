/**
 * Rooms from the owner's side on a real relay (docs/ROOMS.md): invite links that carry the relay
 * key the creator pinned, joining by link or code, rotation, ejection, and what stays on the
 * owner's machine (rationale) or goes only to the owner (notes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTable } from "../../../src/client/node.js";
import { ejectSeat, inviteLink, issueInvite, joinByInvite, parseInviteLink } from "../../../src/owner/index.js";
import { refusal } from "../protocol/fixtures.js";
import { sharedRelay, startRelay, type LocalRelay } from "../../support/local-relay.js";
import { strollerRoom, tempHome } from "../../support/room-client.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
let other: LocalRelay;
beforeAll(async () => {
  [relay, other] = await Promise.all([sharedRelay(), startRelay()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([relay?.dispose(), other?.dispose()]);
});

async function cleoJoins(invite: string, home = tempHome("cleo"), extra: { relay?: string } = {}) {
  const cleo = await keyOf("owner:cleo");
  const seat = await keyOf("seat:cleo-bot");
  return joinByInvite({
    invite,
    home,
    owner: "cleo",
    ownerSigner: cleo,
    seat: "cleo-bot",
    seatKey: seat.publicKeyText,
    card: {},
    ttlMs: 60_000,
    ...extra,
  });
}

describe("invite links", () => {
  it("carry the relay URL, the key the creator pinned and the code, and round-trip", () => {
    const link = inviteLink({
      relay: "https://relay.example/",
      relayKey: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
      code: "ABCD-EFGH",
    });
    expect(link).toBe(
      "https://relay.example/invites#code=ABCD-EFGH&relay_key=11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    );
    expect(parseInviteLink(link)).toEqual({
      relay: "https://relay.example",
      relayKey: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
      code: "ABCD-EFGH",
    });
  });

  it("admit a new owner, who pins the relay to the key the link carries", async () => {
    const { sara } = await strollerRoom(relay.url);
    const invite = await issueInvite(sara.client, sara.ownerKey, { ttlMs: 60_000 });
    expect(parseInviteLink(invite.link)).toMatchObject({
      relay: relay.url,
      relayKey: sara.client.tracker.relayKey,
      code: invite.code,
    });
    const { client, joined } = await cleoJoins(invite.link);
    expect(joined.seat).toBe("cleo-bot");
    expect(client.tracker.relayKey).toBe(sara.client.tracker.relayKey);
  });

  it("admit by a bare code given with its relay", async () => {
    const { sara } = await strollerRoom(relay.url);
    const invite = await issueInvite(sara.client, sara.ownerKey, { ttlMs: 60_000 });
    const { joined } = await cleoJoins(invite.code.replace("-", " ").toLowerCase(), tempHome("cleo"), {
      relay: relay.url,
    });
    expect(joined.seat).toBe("cleo-bot");
  });

  describe("when a link cannot be trusted or used", () => {
    it("refuses a relay that serves another key than the link names, before looking anything up", async () => {
      const { sara } = await strollerRoom(relay.url);
      const invite = await issueInvite(sara.client, sara.ownerKey, { ttlMs: 60_000 });
      const impostor = invite.link.replace(relay.url, other.url);
      expect((await refusal(() => cleoJoins(impostor))).code).toBe("E_RELAY_KEY");
      const state = await sara.guard.transcript();
      expect(state.state!.room!.invites[invite.invite]).toMatchObject({ state: "open" });
    });

    it("refuses a rotated invite's link, and admits with the new one", async () => {
      const { sara } = await strollerRoom(relay.url);
      const old = await issueInvite(sara.client, sara.ownerKey, { ttlMs: 60_000 });
      const rotated = await issueInvite(sara.client, sara.ownerKey, { ttlMs: 60_000, replaces: old.invite });
      expect((await refusal(() => cleoJoins(old.link))).code).toBe("E_INVITE");
      expect((await cleoJoins(rotated.link)).joined.seat).toBe("cleo-bot");
    });

    it("refuses a bare code without a relay, and text that is neither a link nor a code", async () => {
      expect((await refusal(() => cleoJoins("ABCD-EFGH"))).code).toBe("E_SCHEMA");
      expect((await refusal(() => cleoJoins("https://relay.example/invites#code=nope"))).code).toBe("E_SCHEMA");
    });
  });
});

describe("ejecting", () => {
  it("lets the creator eject a seat, and nobody else", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    const benAsCreator = await openTable({ relay: relay.url, table: ben.client.table, home: ben.home });
    expect((await refusal(() => ejectSeat(benAsCreator, ben.ownerKey, "sara-bot"))).code).toBe("E_BAD_SIGNATURE");
    const ejected = await ejectSeat(sara.client, sara.ownerKey, "ben-bot");
    expect(ejected.seq).toBeGreaterThan(0);
    // An ejected seat can no longer read the room, so its guard stops at the transcript, before signing anything.
    expect((await refusal(() => ben.guard.send({ kind: "say", body: "still here?" }))).code).toBe("E_AUTH");
  });
});

describe("what stays with the owner", () => {
  it("keeps private rationale in the journal only, never in the room", async () => {
    const { ben } = await strollerRoom(relay.url);
    const secret = "Holding at 2,500 because the seller mentioned moving next week";
    expect(ben.guard.rationale(secret, { seq: 3 })).toMatchObject({ type: "rationale", text: secret, re: { seq: 3 } });
    await ben.guard.send({ kind: "say", body: "Could you do 2,500?" });
    const { text } = await ben.client.exportLedger({ signer: await keyOf("seat:ben-bot"), as: { seat: "ben-bot" } });
    expect(text).not.toContain("moving next week");
  });

  it("sends a note to the owner through the relay and keeps it in the journal, never in the room", async () => {
    const { ben } = await strollerRoom(relay.url);
    const sent = await ben.guard.tellOwner("The seller will not go below 2,800. Accept?");
    expect(sent).toMatchObject({ id: expect.stringContaining(":note:ben-bot:"), queued: 0 });
    expect(ben.guard.journal.ofType("owner_note").at(-1)).toMatchObject({
      text: "The seller will not go below 2,800. Accept?",
      id: sent.id,
      queued: 0,
    });
    const { text } = await ben.client.exportLedger({ signer: await keyOf("seat:ben-bot"), as: { seat: "ben-bot" } });
    expect(text).not.toContain("will not go below");
  });
});
