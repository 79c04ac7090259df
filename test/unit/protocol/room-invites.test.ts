/** Who gets into a room (docs/SPEC.md §5.10, decision 0220): invites, joins by invite, parties, ejection. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  controlDraft,
  ejectDraft,
  fold,
  inviteDraft,
  signEject,
  notificationsFor,
  ownerKeyOf,
  signStatement,
  statementOf,
  verifyStatement,
  type EntryDraft,
} from "../../../src/protocol/index.js";
import { signControl } from "../../../src/client/owner-requests.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { nonceOf } from "../../support/table-fixture.js";
import { kindOf, refusal } from "./fixtures.js";
import { refused } from "../../support/refused.js";

let r: RoomLedger;
beforeEach(async () => {
  r = await RoomLedger.open({ ben: false });
});

describe("invites", () => {
  it("records the creator's signed invite, whose statement verifies offline", async () => {
    const [entry] = await r.invite({ invite: nonceOf("inv-1") });
    expect(entry).toMatchObject({
      subkind: "invite_issued",
      data: { invite: nonceOf("inv-1"), by: "sara" },
      author: { key: r.k.sara.publicKeyText },
    });
    const recorded = statementOf(entry as EntryDraft)!;
    expect(recorded.purpose).toBe("room");
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
    expect(r.state.room!.invites[nonceOf("inv-1")]).toMatchObject({ state: "open" });
  });

  it("admits a new owner who joins with a live invite and its own key, as a party", async () => {
    await r.invite();
    const added = await r.joinByInvite("ben", "ben-bot", r.lastInvite);
    expect(added.map(kindOf)).toEqual(["seat_joined"]);
    expect(added[0]).toMatchObject({ author: { key: r.k.ben.publicKeyText } });
    expect(r.state.room!.parties.ben).toMatchObject({
      public_key: r.k.ben.publicKeyText,
      invite: r.lastInvite,
      ejected: null,
    });
    expect(r.state.room!.invites[r.lastInvite]).toMatchObject({ state: "used" });
    expect(ownerKeyOf(r.state, "ben")).toBe(r.k.ben.publicKeyText);
  });

  it("rotates an invite: the old one can no longer be used, the new one can", async () => {
    await r.invite();
    const old = r.lastInvite;
    await r.invite({ replaces: old });
    expect(r.state.room!.invites[old]).toMatchObject({ state: "replaced" });
    await refused("E_INVITE", () => r.joinByInvite("ben", "ben-bot", old), {
      unmoved: r,
      details: { reason: "replaced" },
    });
    await r.joinByInvite("ben", "ben-bot", r.lastInvite);
  });

  it("lets a party seat another bot without a new invite, signed with its key", async () => {
    await r.admit("ben", "ben-bot");
    await r.l.join(r.k.ben, "ben", "ben-2", await r.seatKey("ben-2"));
    expect(r.state.seats["ben-2"]).toMatchObject({ owner: "ben" });
  });

  it("lets a party pause and resume the room with its own key", async () => {
    await r.admit("ben", "ben-bot");
    const nonce = nonceOf("ben pauses");
    const request = await signControl(r.k.ben, { table: r.state.table, owner: "ben", action: "pause", nonce });
    const [entry] = r.l.append(
      controlDraft(r.state, { owner: "ben", action: "pause", via: "owner", nonce, sig: request.sig }),
    );
    expect(entry).toMatchObject({ subkind: "table_paused", author: { key: r.k.ben.publicKeyText } });
  });

  it("tells the new party of the room as it joins, and every party when it closes", async () => {
    await r.invite();
    const joined = await r.joinByInvite("ben", "ben-bot", r.lastInvite);
    expect(notificationsFor(r.state, joined).get(r.k.ben.publicKeyText)).toMatchObject([{ type: "table_opened" }]);
    const closed = await r.write("ben-bot", { kind: "close", outcome: "no_deal" });
    const events = notificationsFor(r.state, closed);
    // Room news (a close without a deal) comes first, to owners with the default setting.
    expect(events.get(r.k.ben.publicKeyText)).toMatchObject([
      { type: "room_news", news: "no_deal" },
      { type: "table_closed", reason: "no_deal" },
    ]);
    expect(events.get(r.k.sara.publicKeyText)).toMatchObject([
      { type: "room_news", news: "no_deal" },
      { type: "table_closed", reason: "no_deal" },
    ]);
  });

  describe("when an invite is not allowed", () => {
    it("refuses an invite by anyone but the creator", async () => {
      await r.admit("ben", "ben-bot");
      const request = {
        statement: {
          scope: "invite" as const,
          table: r.state.table,
          invite: nonceOf("ben's"),
          expires: r.l.now + 60_000,
        },
        sig: await signStatement(r.k.ben, "room", {}),
      };
      const forged = {
        ...inviteDraft(r.state, request),
        data: { invite: nonceOf("ben's"), expires: r.l.now + 60_000, by: "ben" },
      };
      await refused("E_FORBIDDEN", async () => r.l.append(forged), { unmoved: r });
      await refused(
        "E_BAD_SIGNATURE",
        async () =>
          r.l.append({
            ...forged,
            data: { ...forged.data, by: "sara" },
            author: { key: r.k.ben.publicKeyText, sig: forged.author.sig },
          }),
        { unmoved: r },
      );
    });

    it("refuses an invite that expires before it is issued, or more than 7 days on", async () => {
      await refused("E_EXPIRED", () => r.invite({ expires: r.l.now }), { unmoved: r });
      await refused("E_EXPIRED", () => r.invite({ expires: r.l.now + 8 * 24 * 3_600_000 }), { unmoved: r });
    });

    it("refuses an invite id issued before, and rotating an invite that was used", async () => {
      await r.invite({ invite: nonceOf("same") });
      await refused("E_INVITE", () => r.invite({ invite: nonceOf("same") }), { unmoved: r });
      await r.joinByInvite("ben", "ben-bot", nonceOf("same"));
      await refused("E_INVITE", () => r.invite({ replaces: nonceOf("same") }), { unmoved: r });
    });
  });

  describe("when a join by invite is not allowed", () => {
    it("refuses an invite used once already", async () => {
      await r.admit("ben", "ben-bot");
      await refused("E_INVITE", () => r.joinByInvite("cleo", "cleo-bot", r.lastInvite), {
        unmoved: r,
        details: { reason: "used" },
      });
    });

    it("refuses an invite that expired", async () => {
      await r.invite({ expires: r.l.now + 1500 });
      r.l.now += 10_000;
      await refused("E_INVITE", () => r.joinByInvite("ben", "ben-bot", r.lastInvite), {
        unmoved: r,
        details: { reason: "expired" },
      });
    });

    it("refuses an invite the creator never issued", async () => {
      await refused("E_INVITE", () => r.joinByInvite("ben", "ben-bot", nonceOf("never issued")), {
        unmoved: r,
        details: { reason: "unknown" },
      });
    });

    it("refuses an owner name already taken, and a key that is already an owner's, pointing an owner already here to a plain join", async () => {
      await r.invite();
      await refused("E_FORBIDDEN", () => r.joinByInvite("ben", "ben-bot", r.lastInvite, { name: "sara" }), {
        unmoved: r,
      });
      await refused(
        "E_FORBIDDEN",
        () => r.joinByInvite("ben", "ben-bot", r.lastInvite, { signer: r.k.sara, ownerKey: r.k.sara.publicKeyText }),
        { unmoved: r },
      );
      expect((await refusal(() => r.joinByInvite("ben", "ben-bot", r.lastInvite, { name: "sara" }))).message).toMatch(
        /seats another bot with a plain join, without an invite/,
      );
    });

    it("refuses a join by invite signed by another key than the one it names", async () => {
      await r.invite();
      // Signed by ben's key but naming cleo's: the relay's signature check (and any verifier) refuses it.
      const draft = await r.inviteJoinDraft("ben", "ben-bot", r.lastInvite, { ownerKey: r.k.cleo.publicKeyText });
      const recorded = statementOf(draft)!;
      expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(false);
      // A draft recording another key than the one the statement names is refused by the policy too.
      await refused(
        "E_BAD_SIGNATURE",
        async () => r.l.append({ ...draft, author: { ...draft.author, key: r.k.ben.publicKeyText } }),
        { unmoved: r },
      );
    });

    it("refuses more invited owners than max_parties", async () => {
      r = await RoomLedger.open({ ben: false, config: { room: { max_parties: 1 } } });
      await r.admit("ben", "ben-bot");
      await r.invite();
      await refused("E_SEAT_LIMIT", () => r.joinByInvite("cleo", "cleo-bot", r.lastInvite), { unmoved: r });
    });
  });
});

describe("ejecting a seat", () => {
  beforeEach(async () => {
    await r.admit("ben", "ben-bot");
  });

  it("records the creator's ejection and the seat_left it causes; the seat can no longer write", async () => {
    const added = await r.eject("ben-bot");
    expect(added.map(kindOf)).toEqual(["seat_ejected", "seat_left"]);
    expect(added[1]).toMatchObject({ data: { seat: "ben-bot", reason: "ejected" }, author: null });
    await refused("E_UNKNOWN_SEAT", () => r.offer("ben-bot", twd(1)), { unmoved: r });
  });

  it("ejects the party: every present seat of its owner leaves, in seat-join order, in the same batch", async () => {
    await r.l.join(r.k.ben, "ben", "ben-2", await r.seatKey("ben-2"));
    await r.l.join(r.k.ben, "ben", "ben-3", await r.seatKey("ben-3"));
    const added = await r.eject("ben-2");
    expect(added.map(kindOf)).toEqual(["seat_ejected", "seat_left", "seat_left", "seat_left"]);
    expect(added.slice(1).map((e) => e.kind === "system" && e.data)).toEqual(
      ["ben-bot", "ben-2", "ben-3"].map((seat) => ({ seat, reason: "ejected" })),
    );
    expect(r.state.room!.parties.ben!.ejected).toBe(added[0]!.seq);
    for (const seat of ["ben-bot", "ben-2", "ben-3"])
      await refused("E_UNKNOWN_SEAT", () => r.offer(seat, twd(1)), { unmoved: r });
    await r.offer("sara-bot", twd(300000));
    expect(fold(r.l.entries)).toEqual(r.state);
  });

  it("moves the floor on when the party's ejected seat held it", async () => {
    r = await RoomLedger.open({ config: { floor: { max_bot_depth: 2 } } });
    await r.l.join(r.k.ben, "ben", "ben-human", await r.seatKey("ben-human"), { human: true });
    await r.write("sara-bot", { kind: "say", body: "3,600 TWD, folds flat" });
    await r.write("ben-bot", { kind: "say", body: "too much" });
    expect(r.state.floor.holder).toBe("ben-human");
    const added = await r.eject("ben-bot");
    expect(added.map(kindOf)).toEqual(["seat_ejected", "seat_left", "seat_left", "floor"]);
    expect(added[3]).toMatchObject({ data: { holder: null } });
    expect((await r.write("sara-bot", { kind: "say", body: "anyone else?" })).map(kindOf)).toEqual(["say"]);
  });

  it("ejects only that seat of an owner the config lists, who may seat another", async () => {
    r = await RoomLedger.open({
      ben: false,
      config: {
        owners: { sara: { public_key: r.k.sara.publicKeyText }, cleo: { public_key: r.k.cleo.publicKeyText } },
      },
    });
    await r.l.join(r.k.cleo, "cleo", "cleo-bot", await r.seatKey("cleo-bot"));
    await r.l.join(r.k.cleo, "cleo", "cleo-2", await r.seatKey("cleo-2"));
    expect((await r.eject("cleo-bot")).map(kindOf)).toEqual(["seat_ejected", "seat_left"]);
    await r.offer("cleo-2", twd(250000));
    await r.l.join(r.k.cleo, "cleo", "cleo-3", await r.seatKey("cleo-3"));
    expect(r.state.seats["cleo-3"]).toMatchObject({ owner: "cleo", left: null });
  });

  it("keeps an ejected party out: it cannot seat another bot", async () => {
    await r.eject("ben-bot");
    await refused("E_FORBIDDEN", async () => r.l.join(r.k.ben, "ben", "ben-2", await r.seatKey("ben-2")), {
      unmoved: r,
    });
  });

  it("folds to the same state the writes produced", async () => {
    await r.offer("ben-bot", twd(250000));
    await r.eject("ben-bot");
    expect(fold(r.l.entries)).toEqual(r.state);
  });

  describe("when an ejection is not allowed", () => {
    it("refuses an ejection by anyone but the creator", async () => {
      const draft = ejectDraft(
        r.state,
        await signEject(r.k.ben, { table: r.state.table, seat: "ben-bot", nonce: nonceOf("x") }),
      );
      // The draft records the creator's key, so ben's signature does not verify; naming ben as its author is refused.
      const recorded = statementOf(draft)!;
      expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(false);
      await refused("E_FORBIDDEN", async () => r.l.append({ ...draft, data: { ...draft.data, by: "ben" } }), {
        unmoved: r,
      });
      await refused(
        "E_BAD_SIGNATURE",
        async () => r.l.append({ ...draft, author: { ...draft.author, key: r.k.ben.publicKeyText } }),
        { unmoved: r },
      );
    });

    it("refuses ejecting the creator's own seat, and a seat not in the room", async () => {
      await refused("E_NOT_ALLOWED", () => r.eject("sara-bot"), { unmoved: r });
      await refused("E_UNKNOWN_SEAT", () => r.eject("nobody"), { unmoved: r });
    });
  });
});
