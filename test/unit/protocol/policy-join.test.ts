/** Joins (docs/SPEC.md §4.2): an owner-signed delegation of one declared seat to one seat key. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  canonicalize,
  canonicalSha256,
  fromHex,
  joinDraft,
  LIMITS,
  signJoin,
  statementOf,
  toBase64url,
  verifyStatement,
  type CapabilityCard,
  type EntryDraft,
  type JoinStatement,
  type SystemDraftOf,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, keyOf, nonceOf, type Cast } from "../../support/table-fixture.js";
import { moves, openConfig, refusal, TestTable } from "./fixtures.js";

let t: TestTable;
let k: Cast;
beforeAll(async () => {
  k = await cast();
  t = await TestTable.open(debateConfig(k), ["judge"], k);
});

const CARD: CapabilityCard = { summary: "argues for #459", role: "pro" };

/** The known-good join of bot-tao by tao, with `change` applied to the statement before signing. */
async function joinOf(
  change: Partial<JoinStatement> = {},
  opts: { signer?: "tao" | "jenny"; card?: CapabilityCard } = {},
) {
  const fields = {
    table: "t-459",
    seat: "bot-tao",
    owner: "tao",
    seat_key: k.botTao.publicKeyText,
    human: false,
    nonce: nonceOf("join bot-tao"),
    expires: t.l.now + 60_000,
    ...change,
  };
  return signJoin(opts.signer === "jenny" ? k.jenny : k.tao, fields, opts.card ?? CARD);
}

/** admit's verdict on a join draft against the fixture table, without appending it. */
function judge(draft: SystemDraftOf<"seat_joined">, now = t.l.now) {
  return admit(t.state, draft, now);
}

describe("joining a seat", () => {
  it("admits a valid join as seat_joined, recording the seat key, owner, card and human flag", async () => {
    const { entries, state } = judge(joinDraft(t.state, await joinOf()));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      seq: 3,
      kind: "system",
      subkind: "seat_joined",
      author: { key: k.tao.publicKeyText },
    });
    expect(state.seats["bot-tao"]).toEqual({
      name: "bot-tao",
      owner: "tao",
      key: k.botTao.publicKeyText,
      human: false,
      card: CARD,
      joined: 3,
      left: null,
    });
  });

  it("records an owner signature that verifies offline", async () => {
    const recorded = statementOf(joinDraft(t.state, await joinOf()) as EntryDraft)!;
    expect(recorded).toMatchObject({ purpose: "join", key: k.tao.publicKeyText });
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
  });

  it("does not change the state it judged", async () => {
    const before = canonicalize(t.state);
    judge(joinDraft(t.state, await joinOf()));
    await refusal(async () => judge(joinDraft(t.state, await joinOf({ seat: "stranger" }))));
    expect(canonicalize(t.state)).toBe(before);
  });

  it("accepts a join that expires exactly now, or exactly at the longest validity", async () => {
    const now = t.l.now;
    expect(judge(joinDraft(t.state, await joinOf({ expires: now })), now).entries).toHaveLength(1);
    expect(
      judge(joinDraft(t.state, await joinOf({ expires: now + LIMITS.join_ttl_max_ms })), now).entries,
    ).toHaveLength(1);
  });

  it("starts the floor when the last seat of the topology joins", async () => {
    const table = await TestTable.open(debateConfig(k), ["bot-tao", "bot-jenny"], k);
    expect(table.state.floor.started).toBe(false);
    const added = await table.join("judge");
    expect(moves(added)).toEqual([{ floor: { holder: "bot-tao", round: 1, reason: "start" } }]);
  });

  it("lets any owner take any seat name at an open room without declared seats", async () => {
    const { seats: _seats, ...room } = openConfig(k);
    const table = await TestTable.open(room, [], k);
    const added = await table.join("anything", { owner: "jenny" });
    expect(added.map((e) => e.kind === "system" && e.subkind)).toEqual(["seat_joined"]);
    expect(table.state.seats.anything).toMatchObject({ owner: "jenny" });
  });

  // "constructor" is a valid name that a plain `in` check would find on Object.prototype.
  it("lets an owner take a free seat named constructor at an open room", async () => {
    const { seats: _seats, ...room } = openConfig(k);
    const table = await TestTable.open(room, [], k);
    await table.join("constructor", { owner: "jenny" });
    expect(table.state.seats.constructor).toMatchObject({ owner: "jenny" });
  });

  describe("when one field of the join is wrong", () => {
    it("refuses a join for another table with E_WRONG_TABLE", async () => {
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ table: "t-461" }))))).code).toBe(
        "E_WRONG_TABLE",
      );
    });

    it("refuses a join draft addressed to another table with E_WRONG_TABLE", async () => {
      const draft = { ...joinDraft(t.state, await joinOf()), table: "t-461" };
      expect((await refusal(() => judge(draft))).code).toBe("E_WRONG_TABLE");
    });

    it("refuses an owner who is not in the config with E_NOT_OWNER", async () => {
      const request = await joinOf({ owner: "mallory" });
      expect((await refusal(() => joinDraft(t.state, request))).code).toBe("E_NOT_OWNER");
      const draft = joinDraft(t.state, await joinOf());
      draft.data = { ...draft.data, join: { ...draft.data.join, owner: "mallory" } };
      expect((await refusal(() => judge(draft))).code).toBe("E_NOT_OWNER");
    });

    it("refuses a join recorded under another owner's key with E_BAD_SIGNATURE", async () => {
      const draft = joinDraft(t.state, await joinOf());
      draft.author = { ...draft.author, key: k.jenny.publicKeyText };
      expect((await refusal(() => judge(draft))).code).toBe("E_BAD_SIGNATURE");
    });

    it("records a signature that fails when another owner signed the join", async () => {
      const recorded = statementOf(joinDraft(t.state, await joinOf({}, { signer: "jenny" })) as EntryDraft)!;
      expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(false);
    });

    it("refuses an expired join with E_EXPIRED", async () => {
      const now = t.l.now;
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ expires: now - 1 })), now))).code).toBe(
        "E_EXPIRED",
      );
    });

    it("refuses a join valid for longer than the limit with E_EXPIRED", async () => {
      const now = t.l.now;
      const far = await joinOf({ expires: now + LIMITS.join_ttl_max_ms + 1 });
      expect((await refusal(() => judge(joinDraft(t.state, far), now))).code).toBe("E_EXPIRED");
    });

    it("refuses a card that does not match card_sha256 with E_SCHEMA", async () => {
      const request = await joinOf();
      const swapped = { ...request, card: { ...CARD, summary: "argues against #459" } };
      expect((await refusal(() => judge(joinDraft(t.state, swapped)))).code).toBe("E_SCHEMA");
      expect(request.join.card_sha256).toBe(canonicalSha256(CARD));
    });

    it("refuses a seat the config does not declare with E_UNKNOWN_SEAT", async () => {
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ seat: "stranger" }))))).code).toBe(
        "E_UNKNOWN_SEAT",
      );
    });

    it("refuses a seat declared for another owner with E_FORBIDDEN", async () => {
      const request = await joinOf({ owner: "jenny", seat: "bot-tao" }, { signer: "jenny" });
      expect((await refusal(() => judge(joinDraft(t.state, request)))).code).toBe("E_FORBIDDEN");
    });

    it("refuses a human flag that differs from the declared seat with E_FORBIDDEN", async () => {
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ human: true }))))).code).toBe(
        "E_FORBIDDEN",
      );
    });

    it("refuses a bot joining a seat declared human with E_FORBIDDEN", async () => {
      const room = await TestTable.open(openConfig(k), [], k);
      const error = await refusal(() => room.join("h", { human: false }));
      expect(error.code).toBe("E_FORBIDDEN");
    });

    it("refuses a seat already taken with E_SEAT_TAKEN", async () => {
      const request = await joinOf({
        seat: "judge",
        owner: "ops",
        seat_key: (await keyOf("another judge")).publicKeyText,
        nonce: nonceOf("j2"),
      });
      const signed = await signJoin(k.ops, request.join, request.card);
      expect((await refusal(() => judge(joinDraft(t.state, signed)))).code).toBe("E_SEAT_TAKEN");
    });

    it("refuses a seat key that already holds another seat with E_FORBIDDEN", async () => {
      const judgeKey = await t.seatKey("judge");
      expect(
        (await refusal(async () => judge(joinDraft(t.state, await joinOf({ seat_key: judgeKey.publicKeyText }))))).code,
      ).toBe("E_FORBIDDEN");
    });

    it("refuses a seat key that is a small-order point with E_SCHEMA", async () => {
      const identity = toBase64url(fromHex("01" + "00".repeat(31)));
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ seat_key: identity }))))).code).toBe(
        "E_SCHEMA",
      );
    });

    // "constructor" is a valid name that a plain `in` check would find on Object.prototype.
    it("refuses an undeclared seat named constructor with E_UNKNOWN_SEAT", async () => {
      expect((await refusal(async () => judge(joinDraft(t.state, await joinOf({ seat: "constructor" }))))).code).toBe(
        "E_UNKNOWN_SEAT",
      );
    });

    it("leaves the ledger untouched after a refusal", async () => {
      const before = t.l.entries.length;
      await refusal(async () => t.l.append(joinDraft(t.state, await joinOf({ seat: "stranger" }))));
      expect(t.l.entries).toHaveLength(before);
    });
  });

  describe("when the entry is not a join", () => {
    it("refuses a relay-made entry submitted directly with E_FORBIDDEN", async () => {
      const floor = {
        table: "t-459",
        seat: null,
        kind: "system",
        subkind: "floor",
        data: { holder: "judge", round: 1, reason: "start" },
        author: null,
      } as EntryDraft;
      expect((await refusal(() => admit(t.state, floor, t.l.now))).code).toBe("E_FORBIDDEN");
    });
  });
});
