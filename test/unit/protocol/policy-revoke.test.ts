/** Revoking a seat (docs/SPEC.md §5.13): the owner-signed seat_revoked, the key refused from then on, the name seated again, replay. */
import { describe, expect, it } from "vitest";
import {
  controlDraft,
  fold,
  liveOffers,
  revokeDraft,
  statementOf,
  verifyExport,
  verifyStatement,
  type Entry,
  type EntryDraft,
  type Signer,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { signRevoke } from "../../../src/client/owner-requests.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { cast, keyOf, nonceOf, type MemoryLedger } from "../../support/table-fixture.js";
import {
  broadcastConfig,
  debateTable,
  exportOf,
  headOver,
  kindOf,
  openConfig,
  rechain,
  refusal,
  TestTable,
} from "./fixtures.js";

/** The revocation draft the relay builds from `owner`'s signed statement (signed by `signer`, default that owner's key) revoking `seat`'s present key. */
async function revocation(
  t: TestTable,
  owner: string,
  seat: string,
  opts: { signer?: Signer; key?: string; nonce?: string } = {},
) {
  const seatKey = opts.key ?? t.state.seats[seat]?.key ?? (await t.seatKey(seat)).publicKeyText;
  const fields = {
    table: t.state.table,
    owner,
    seat,
    seat_key: seatKey,
    nonce: opts.nonce ?? nonceOf(`revoke:${seat}:${t.state.seq}`),
  };
  const request = await signRevoke(opts.signer ?? t.ownerKey(owner), fields);
  return revokeDraft(t.state, request.revoke, request.sig);
}

/** Seats `seat` again as `owner` with a fresh key derived from `label`; returns that key. */
async function reseat(t: TestTable, seat: string, owner: string, label = `${seat}:again`): Promise<Signer> {
  const key = await keyOf(`seat:${label}`);
  await t.l.join(t.ownerKey(owner), owner, seat, key, { nonce: nonceOf(`join:${label}`) });
  return key;
}

/** An open table without declared seats, so any owner may take any name: x (tao) and y (jenny) seated. */
async function undeclared(): Promise<TestTable> {
  const k = await cast();
  const { seats: _declared, ...config }: TableConfig = openConfig(k);
  const t = await TestTable.open(config, [], k);
  await t.join("x", { owner: "tao" });
  await t.join("y", { owner: "jenny" });
  return t;
}

describe("revoking a seat", () => {
  it("appends the owner-signed seat_revoked and the seat_left it causes; the signature verifies offline", async () => {
    const t = await debateTable(await cast());
    const added = t.l.append(await revocation(t, "jenny", "bot-jenny"));
    expect(added.map(kindOf)).toEqual(["seat_revoked", "seat_left"]);
    expect(added[1]).toMatchObject({ data: { seat: "bot-jenny", reason: "revoked" } });
    const recorded = statementOf(added[0] as EntryDraft)!;
    expect(recorded).toMatchObject({
      purpose: "owner",
      key: t.k.jenny.publicKeyText,
      statement: { scope: "seat_revoke", seat: "bot-jenny" },
    });
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
    expect(t.state.revoked).toEqual([
      { seat: "bot-jenny", owner: "jenny", key: t.k.botJenny.publicKeyText, seq: added[0]!.seq },
    ]);
  });

  it("refuses everything the revoked key signs afterwards with E_REVOKED", async () => {
    const t = await debateTable(await cast());
    t.l.append(await revocation(t, "tao", "bot-tao"));
    const error = await refusal(() => t.say("bot-tao"));
    expect(error.code).toBe("E_REVOKED");
    expect(error.details).toMatchObject({ seat: "bot-tao", revoked_at: t.state.revoked[0]!.seq });
  });

  it("moves the floor on when the holder is revoked, as when a holder leaves", async () => {
    const t = await debateTable(await cast());
    expect(t.holder).toBe("bot-tao");
    const added = t.l.append(await revocation(t, "tao", "bot-tao"));
    expect(added.map(kindOf)).toEqual(["seat_revoked", "seat_left", "floor"]);
    expect(t.holder).toBe("bot-jenny");
  });

  it("lands while the table is paused, and after it closed", async () => {
    const t = await debateTable(await cast());
    t.l.append(controlDraft(t.state, { owner: "tao", action: "pause", via: "telegram", nonce: nonceOf("pause") }));
    expect(t.l.append(await revocation(t, "jenny", "bot-jenny")).map(kindOf)).toEqual(["seat_revoked", "seat_left"]);
    const closed = await debateTable(await cast());
    for (let round = 1; round <= 2; round++) for (const seat of ["bot-tao", "bot-jenny"]) await closed.say(seat);
    await closed.write("judge", { kind: "decision", body: "done" });
    expect(closed.state.closed).not.toBeNull();
    expect(closed.l.append(await revocation(closed, "tao", "bot-tao")).map(kindOf)).toEqual([
      "seat_revoked",
      "seat_left",
    ]);
  });

  it("seats a revoked debate seat again with a new key, and that seat takes its turn", async () => {
    const t = await debateTable(await cast());
    await t.say("bot-tao");
    t.l.append(await revocation(t, "jenny", "bot-jenny"));
    // Nobody holds con's turn while it is away: the rotation goes on without it.
    expect(t.holder).toBe("bot-tao");
    const fresh = await reseat(t, "bot-jenny", "jenny");
    expect(t.state.seats["bot-jenny"]).toMatchObject({ owner: "jenny", key: fresh.publicKeyText, left: null });
    await t.say("bot-tao");
    expect(t.holder).toBe("bot-jenny");
    const said = await t.l.submit(fresh, { seat: "bot-jenny", kind: "say", body: "con, with a new key" });
    expect(said[0]).toMatchObject({ seat: "bot-jenny", author: { key: fresh.publicKeyText } });
    expect(fold(t.l.entries)).toEqual(t.state);
  });

  it("drops the revoked seat's votes, so the seat seated again votes afresh", async () => {
    const k = await cast();
    const t = await TestTable.open(
      broadcastConfig(k, { termination: { any: [{ quorum: { n: 3, of: "seats" } }, "rounds_exhausted"] } }),
      ["a", "b", "c"],
      k,
    );
    const [proposal] = await t.write("a", { kind: "proposal", body: "ship #459 first" });
    await t.write("b", { kind: "vote", re: proposal!.seq, choice: "yes" });
    t.l.append(await revocation(t, "jenny", "b"));
    expect(t.state.proposals[0]!.votes).toEqual([]);
    const fresh = await reseat(t, "b", "jenny");
    await t.l.submit(fresh, { seat: "b", kind: "vote", re: proposal!.seq, choice: "no" } as Parameters<
      MemoryLedger["submit"]
    >[1]);
    expect(t.state.proposals[0]!.votes).toEqual([{ seat: "b", owner: "jenny", choice: "no" }]);
  });

  it("does not revive the revoked seat's offers when the name is seated again", async () => {
    const r = await RoomLedger.open();
    const leaf = await r.offer("sara-bot", twd(360000));
    const sara = r.ownerKey("sara");
    const request = await signRevoke(sara, {
      table: r.state.table,
      owner: "sara",
      seat: "sara-bot",
      seat_key: r.state.seats["sara-bot"]!.key,
      nonce: nonceOf("revoke:sara-bot"),
    });
    r.l.append(revokeDraft(r.state, request.revoke, request.sig));
    await r.l.join(sara, "sara", "sara-bot", await keyOf("seat:sara-bot:again"), {
      nonce: nonceOf("join:sara-bot:again"),
    });
    expect(liveOffers(r.state, r.l.now).map(([l]) => l)).not.toContain(leaf);
  });
});

describe("when a revocation or a re-seat is refused", () => {
  it.each([
    ["E_NOT_OWNER", "a name that is no owner", (t: TestTable) => revocation(t, "mallory", "x", { signer: t.k.ops })],
    ["E_FORBIDDEN", "another owner", (t: TestTable) => revocation(t, "jenny", "x")],
    ["E_UNKNOWN_SEAT", "an unknown seat", (t: TestTable) => revocation(t, "tao", "nobody")],
    [
      "E_NOT_ALLOWED",
      "a key that does not hold the seat",
      async (t: TestTable) => revocation(t, "tao", "x", { key: (await keyOf("seat:other")).publicKeyText }),
    ],
  ])("refuses %s: %s", async (code, _what, draft) => {
    const t = await undeclared();
    const before = t.l.entries.length;
    expect((await refusal(async () => t.l.append(await draft(t)))).code).toBe(code);
    expect(t.l.entries.length).toBe(before);
  });

  it("refuses a revocation recorded under another owner's key (E_BAD_SIGNATURE)", async () => {
    const t = await undeclared();
    const draft = await revocation(t, "tao", "x");
    expect(
      (await refusal(() => t.l.append({ ...draft, author: { ...draft.author, key: t.k.jenny.publicKeyText } }))).code,
    ).toBe("E_BAD_SIGNATURE");
  });

  it("refuses revoking a key already revoked (E_NOT_ALLOWED)", async () => {
    const t = await undeclared();
    const first = await revocation(t, "tao", "x");
    t.l.append(first);
    expect(
      (await refusal(async () => t.l.append(await revocation(t, "tao", "x", { nonce: nonceOf("again") })))).code,
    ).toBe("E_NOT_ALLOWED");
  });

  it("refuses a join with a revoked key (E_REVOKED), and the revoked name for another owner (E_SEAT_TAKEN)", async () => {
    const t = await undeclared();
    const old = await t.seatKey("x");
    t.l.append(await revocation(t, "tao", "x"));
    expect((await refusal(() => t.l.join(t.k.tao, "tao", "x", old, { nonce: nonceOf("rejoin") }))).code).toBe(
      "E_REVOKED",
    );
    expect((await refusal(() => t.l.join(t.k.tao, "tao", "z", old, { nonce: nonceOf("elsewhere") }))).code).toBe(
      "E_REVOKED",
    );
    const taken = await refusal(() => t.l.join(t.k.jenny, "jenny", "x", t.k.botJenny, { nonce: nonceOf("steal") }));
    expect(taken.code).toBe("E_SEAT_TAKEN");
    expect(taken.message).toContain("only tao");
    await reseat(t, "x", "tao");
    expect(t.state.seats.x!.left).toBeNull();
  });
});

describe("when a verifier replays a ledger with a revocation", () => {
  it("verifies a revocation and a re-seat CLEAN", async () => {
    const t = await debateTable(await cast());
    t.l.append(await revocation(t, "jenny", "bot-jenny"));
    await reseat(t, "bot-jenny", "jenny");
    expect((await verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  it("refutes a seat_revoked signed by an owner other than the seat's", async () => {
    const t = await debateTable(await cast());
    const draft = await revocation(t, "tao", "bot-tao");
    const [revoked] = t.l.append(draft);
    // A lying relay records another owner's valid signature over the same statement.
    const forged = await signRevoke(t.k.jenny, { ...draft.data, table: t.state.table });
    const entries = rechain(
      t.l.entries.map((e) =>
        e.seq === revoked!.seq ? ({ ...e, author: { key: t.k.jenny.publicKeyText, sig: forged.sig } } as Entry) : e,
      ),
    );
    const report = await verifyExport(exportOf(t.k.relay, entries, [await headOver(t.k.relay, entries)]), {
      relayKey: t.k.relay.publicKeyText,
    });
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: revoked!.seq, reason: expect.stringContaining("E_BAD_SIGNATURE") });
  });

  it("refutes an entry the revoked key wrote after the revocation", async () => {
    const t = await debateTable(await cast());
    t.l.append(await revocation(t, "tao", "bot-tao"));
    // A lying relay: it forgets the revocation (and the leaving) and appends what the leaked key signed.
    const seats = { ...t.state.seats, "bot-tao": { ...t.state.seats["bot-tao"]!, left: null } };
    t.l.state = { ...t.state, revoked: [], seats, floor: { ...t.state.floor, holder: "bot-tao" } };
    const [leaked] = await t.say("bot-tao", "the leaked key speaks");
    const report = await verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText });
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: leaked!.seq, reason: expect.stringContaining("E_REVOKED") });
  });
});
