/**
 * The floor (docs/SPEC.md §5.2) for the open, broadcast and debate topologies: who may speak,
 * raised hands, humans, the character budget and the bot-only run limit.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  canonicalize,
  LIMITS,
  signSubmission,
  statementOf,
  submissionDraft,
  textSha256,
  verifyExport,
  verifyStatement,
  type AuthoredDraft,
  type Entry,
  type EntryDraft,
  type SubmissionInput,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, keyOf, nonceOf, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, moves, openConfig, refusal, TestTable } from "./fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const debate = (overrides: Partial<TableConfig> = {}) => TestTable.open(debateConfig(k, overrides), undefined, k);
const broadcast = (overrides: Partial<TableConfig> = {}, join?: string[]) =>
  TestTable.open(broadcastConfig(k, overrides), join, k);
const room = (overrides: Partial<TableConfig> = {}) => TestTable.open(openConfig(k, overrides), undefined, k);

/** A signed draft from `seat` against the table's current state, as the relay would build it. */
async function draftOf(t: TestTable, seat: string, input: Record<string, unknown>): Promise<AuthoredDraft> {
  const key = await t.seatKey(seat);
  const request = await signSubmission(key, {
    table: t.state.table,
    seat,
    nonce: nonceOf(`draft:${seat}:${t.l.entries.length}`),
    ...input,
  } as SubmissionInput);
  return submissionDraft(t.state, request, key.publicKeyText);
}

describe("the debate floor", () => {
  it("runs pro, con for each round, then the judge once", async () => {
    const t = await debate();
    const seen: unknown[] = [{ holder: t.holder, round: t.state.floor.round }];
    for (const seat of ["bot-tao", "bot-jenny", "bot-tao", "bot-jenny"]) {
      const added = await t.say(seat);
      seen.push(...moves(added).map((m) => (m as { floor: unknown }).floor));
    }
    expect(seen).toEqual([
      { holder: "bot-tao", round: 1 },
      { holder: "bot-jenny", round: 1, reason: "turn" },
      { holder: "bot-tao", round: 2, reason: "turn" },
      { holder: "bot-jenny", round: 2, reason: "turn" },
      { holder: "judge", round: 3, reason: "judge" },
    ]);
  });

  it("interleaves sides given as lists: pro[0], con[0], pro[1], con[1]", async () => {
    const config = debateConfig(k, {
      seats: {
        p1: { owner: "tao" },
        p2: { owner: "tao" },
        c1: { owner: "jenny" },
        c2: { owner: "jenny" },
        judge: { owner: "ops" },
      },
      topology: { kind: "debate", pro: ["p1", "p2"], con: ["c1", "c2"], judge: "judge", rounds: 1 },
    });
    const t = await TestTable.open(config, undefined, k);
    const holders = [t.holder];
    for (let i = 0; i < 4; i++) {
      await t.say(t.holder!);
      holders.push(t.holder);
    }
    expect(holders).toEqual(["p1", "c1", "p2", "c2", "judge"]);
  });

  describe("when a seat writes without the floor", () => {
    it("rejects a say from a seat without the floor with E_NOT_FLOOR naming the holder", async () => {
      const t = await debate();
      const error = await refusal(() => t.say("bot-jenny"));
      expect(error.code).toBe("E_NOT_FLOOR");
      expect(error.details).toEqual({ holder: "bot-tao", round: 1 });
    });

    it.each(["pass", "proposal"] as const)(
      "rejects a %s from a seat without the floor with E_NOT_FLOOR",
      async (kind) => {
        const t = await debate();
        expect((await refusal(() => t.write("bot-jenny", { kind, body: "x" }))).code).toBe("E_NOT_FLOOR");
      },
    );

    it("rejects the judge before its turn with E_NOT_FLOOR", async () => {
      const t = await debate({ floor: { decision_by: "any" } });
      expect((await refusal(() => t.write("judge", { kind: "decision", body: "early" }))).code).toBe("E_NOT_FLOOR");
    });

    it("rejects a say before every seat has joined with E_NOT_FLOOR naming who is missing", async () => {
      const t = await TestTable.open(debateConfig(k), ["bot-tao", "bot-jenny"], k);
      const error = await refusal(() => t.say("bot-tao"));
      expect(error.code).toBe("E_NOT_FLOOR");
      expect(error.details).toEqual({ holder: null, round: 0, waiting_for: ["judge"] });
    });

    it("leaves the ledger and state untouched", async () => {
      const t = await debate();
      const [entries, state] = [t.l.entries.length, canonicalize(t.state)];
      await refusal(() => t.say("bot-jenny"));
      expect(t.l.entries).toHaveLength(entries);
      expect(canonicalize(t.state)).toBe(state);
    });
  });

  it("lets the holder end its turn with pass or proposal as well as say", async () => {
    const t = await debate();
    await t.write("bot-tao", { kind: "pass" });
    expect(t.holder).toBe("bot-jenny");
    await t.write("bot-jenny", { kind: "proposal", body: "ship #461 first" });
    expect(t.holder).toBe("bot-tao");
  });
});

describe("the broadcast floor", () => {
  it("starts with the first seat of the order once every seat of the order joined", async () => {
    const t = await broadcast({}, ["a", "b"]);
    expect(t.state.floor.started).toBe(false);
    expect(moves(await t.join("c"))).toEqual([{ floor: { holder: "a", round: 1, reason: "start" } }]);
  });

  // "constructor" is a valid name that a plain `in` check would find on Object.prototype.
  it("waits for a seat named constructor before starting the floor", async () => {
    const config = broadcastConfig(k, {
      seats: { a: { owner: "tao" }, constructor: { owner: "jenny" } },
      topology: { kind: "broadcast", order: ["a", "constructor"], rounds: 1 },
    });
    const t = await TestTable.open(config, ["a"], k);
    expect(t.state.floor.started).toBe(false);
  });

  it("does not wait for declared seats outside the order", async () => {
    const t = await broadcast({}, ["a", "b", "c"]);
    expect(t.holder).toBe("a");
    expect("h" in t.state.seats).toBe(false);
  });

  it("passes the floor round-robin over the order, round after round", async () => {
    const t = await broadcast({ topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 3 } });
    const seen: unknown[] = [];
    for (let i = 0; i < 4; i++) seen.push(...moves(await t.say(t.holder!)));
    expect(seen).toEqual([
      { floor: { holder: "b", round: 1, reason: "turn" } },
      { floor: { holder: "c", round: 1, reason: "turn" } },
      { floor: { holder: "a", round: 2, reason: "turn" } },
      { floor: { holder: "b", round: 2, reason: "turn" } },
    ]);
  });

  describe("when a seat writes without the floor", () => {
    it("rejects a say from a seat without the floor with E_NOT_FLOOR naming the holder", async () => {
      const t = await broadcast();
      const error = await refusal(() => t.say("c"));
      expect(error.code).toBe("E_NOT_FLOOR");
      expect(error.details).toEqual({ holder: "a", round: 1 });
    });

    it("rejects a say from a declared bot outside the order with E_NOT_FLOOR", async () => {
      const config = broadcastConfig(k);
      const t = await TestTable.open({ ...config, seats: { ...config.seats, d: { owner: "jenny" } } }, undefined, k);
      expect((await refusal(() => t.say("d"))).code).toBe("E_NOT_FLOOR");
    });

    it("rejects a say before every seat of the order joined with E_NOT_FLOOR naming who is missing", async () => {
      const t = await broadcast({}, ["a"]);
      const error = await refusal(() => t.say("a"));
      expect(error.details).toMatchObject({ holder: null, waiting_for: ["b", "c"] });
    });
  });
});

describe("the open floor", () => {
  it("lets any seated seat write at any time, in any order", async () => {
    const t = await room();
    for (const seat of ["x", "x", "y", "h", "x"]) await t.say(seat);
    await t.write("y", { kind: "pass" });
    await t.write("x", { kind: "proposal", body: "40 EUR per hour" });
    expect(t.l.entries.filter((e) => e.kind === "system" && e.subkind === "floor")).toEqual([]);
    expect(t.holder).toBeNull();
  });

  it("never starts a floor when seats join", async () => {
    const t = await room();
    expect(t.state.floor.started).toBe(false);
    expect(moves(t.l.entries)).toEqual([]);
  });
});

describe("raise_hand", () => {
  it("gives the raised hand the floor next, then resumes the rotation", async () => {
    const t = await broadcast({ topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 3 } });
    const raised = await t.write("c", { kind: "raise_hand" });
    expect(moves(raised)).toEqual([]);
    expect(t.state.floor.hands).toEqual(["c"]);
    expect(moves(await t.say("a"))).toEqual([{ floor: { holder: "c", round: 1, reason: "hand" } }]);
    expect(t.state.floor.hands).toEqual([]);
    expect(moves(await t.say("c"))).toEqual([{ floor: { holder: "b", round: 1, reason: "turn" } }]);
    expect(moves(await t.say("b"))).toEqual([{ floor: { holder: "c", round: 1, reason: "turn" } }]);
  });

  it("queues several hands in the order they were raised", async () => {
    const config = broadcastConfig(k);
    const t = await TestTable.open({ ...config, seats: { ...config.seats, d: { owner: "jenny" } } }, undefined, k);
    await t.write("d", { kind: "raise_hand" });
    await t.write("c", { kind: "raise_hand" });
    expect(t.state.floor.hands).toEqual(["d", "c"]);
    const holders: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      await t.say(t.holder!);
      holders.push(t.holder);
    }
    expect(holders).toEqual(["d", "c", "b", "c"]);
  });

  it("lets a human raise a hand too", async () => {
    const t = await broadcast();
    await t.write("h", { kind: "raise_hand" });
    await t.say("a");
    expect(t.holder).toBe("h");
  });

  describe("when raising a hand is not allowed", () => {
    it("refuses a hand on an open table with E_NOT_ALLOWED", async () => {
      const t = await room();
      expect((await refusal(() => t.write("x", { kind: "raise_hand" }))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a second hand from the same seat with E_NOT_ALLOWED", async () => {
      const t = await broadcast();
      await t.write("c", { kind: "raise_hand" });
      expect((await refusal(() => t.write("c", { kind: "raise_hand" }))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a hand from the holder with E_NOT_ALLOWED", async () => {
      const t = await broadcast();
      expect((await refusal(() => t.write("a", { kind: "raise_hand" }))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a hand before the floor starts with E_NOT_ALLOWED", async () => {
      const t = await broadcast({}, ["a", "b"]);
      expect((await refusal(() => t.write("b", { kind: "raise_hand" }))).code).toBe("E_NOT_ALLOWED");
    });
  });
});

describe("human seats", () => {
  it("may say at any time without the floor, which stays where it was", async () => {
    const t = await broadcast({}, ["a", "b", "c", "h"]);
    const added = await t.say("h", "a word from the owner");
    expect(added.map(kindOf)).toEqual(["say"]);
    expect(t.holder).toBe("a");
  });

  it("may decide without the floor where anyone may decide", async () => {
    const t = await broadcast({ termination: { any: ["decision", "rounds_exhausted"] } }, ["a", "b", "c", "h"]);
    expect((await t.write("h", { kind: "decision", body: "#459 first" })).map(kindOf)).toEqual([
      "decision",
      "table_closed",
    ]);
  });

  it("may speak any time at an open table even when bot depth handed the floor elsewhere", async () => {
    const t = await room({ floor: { max_bot_depth: 1 } });
    await t.say("x");
    expect(t.holder).toBe("h");
    await t.say("h");
    expect(t.holder).toBeNull();
  });

  describe("when a human passes", () => {
    it("refuses a pass from a human without the floor with E_NOT_FLOOR", async () => {
      const t = await broadcast({}, ["a", "b", "c", "h"]);
      const error = await refusal(() => t.write("h", { kind: "pass" }));
      expect(error.code).toBe("E_NOT_FLOOR");
      expect(error.details).toMatchObject({ holder: "a" });
    });

    it("accepts a pass from a human holding the floor, and moves it on", async () => {
      const t = await broadcast({}, ["a", "b", "c", "h"]);
      await t.write("h", { kind: "raise_hand" });
      await t.say("a");
      expect(t.holder).toBe("h");
      expect(moves(await t.write("h", { kind: "pass" }))).toEqual([
        { floor: { holder: "b", round: 1, reason: "turn" } },
      ]);
    });
  });
});

describe("the character budget (floor.max_chars)", () => {
  it("cuts a longer body to max_chars and marks it truncated with the original length and hash", async () => {
    const t = await broadcast({ floor: { max_chars: 10 } });
    const body = "0123456789abcde";
    const [say] = await t.say("a", body);
    expect(say).toMatchObject({ body: "0123456789", truncated: { chars: 15, body_sha256: textSha256(body) } });
  });

  it("keeps a body of exactly max_chars whole and unmarked", async () => {
    const t = await broadcast({ floor: { max_chars: 10 } });
    const [say] = await t.say("a", "0123456789");
    expect(say).toMatchObject({ body: "0123456789" });
    expect(say).not.toHaveProperty("truncated");
  });

  it("never splits a surrogate pair: the cut drops the whole pair", async () => {
    const t = await broadcast({ floor: { max_chars: 10 } });
    const body = "123456789\u{1F602}tail";
    const [say] = await t.say("a", body);
    expect(say).toMatchObject({ body: "123456789", truncated: { chars: 15, body_sha256: textSha256(body) } });
  });

  it("keeps a pair that ends exactly at the cut", async () => {
    const t = await broadcast({ floor: { max_chars: 10 } });
    const [say] = await t.say("a", "12345678\u{1F602}tail");
    expect(say).toMatchObject({ body: "12345678\u{1F602}" });
  });

  it("keeps the seat's signature verifiable offline, entry by entry and for the whole export", async () => {
    const t = await broadcast({ floor: { max_chars: 10 } });
    const [say] = await t.say("a", "123456789\u{1F602} and much more");
    const recorded = statementOf(say as EntryDraft)!;
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { truncated_checked: 1 } });
  });

  it("uses the published default when the config sets none", async () => {
    const t = await broadcast();
    const [say] = await t.say("a", "x".repeat(LIMITS.max_chars_default + 1));
    expect(say).toMatchObject({ truncated: { chars: LIMITS.max_chars_default + 1 } });
    expect((say as Entry & { body: string }).body).toHaveLength(LIMITS.max_chars_default);
  });

  describe("when a draft's body and marker disagree with max_chars", () => {
    it("refuses an uncut body longer than max_chars with E_TOO_LARGE", async () => {
      const t = await broadcast({ floor: { max_chars: 10 } });
      const draft = await draftOf(t, "a", { kind: "say", body: "0123456789" });
      const long = { ...draft, body: "0123456789abc" } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, long, t.l.now))).code).toBe("E_TOO_LARGE");
    });

    it("refuses a truncation marker on a body that was short enough with E_TOO_LARGE", async () => {
      const t = await broadcast({ floor: { max_chars: 10 } });
      const draft = await draftOf(t, "a", { kind: "say", body: "0123456789" });
      const marked = { ...draft, truncated: { chars: 10, body_sha256: textSha256("0123456789") } } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, marked, t.l.now))).code).toBe("E_TOO_LARGE");
    });

    it("refuses a marked body cut shorter than the budget with E_TOO_LARGE", async () => {
      const t = await broadcast({ floor: { max_chars: 10 } });
      const draft = await draftOf(t, "a", { kind: "say", body: "0123456789abc" });
      const short = { ...draft, body: "01234567" } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, short, t.l.now))).code).toBe("E_TOO_LARGE");
    });
  });
});

describe("the bot-only run limit (floor.max_bot_depth)", () => {
  const deep = {
    floor: { max_bot_depth: 2 },
    topology: { kind: "broadcast" as const, order: ["a", "b", "c"], rounds: 5 },
  };

  it("hands the floor to the human seat after max_bot_depth bot entries", async () => {
    const t = await broadcast(deep, ["a", "b", "c", "h"]);
    await t.say("a");
    expect(moves(await t.say("b"))).toEqual([{ floor: { holder: "h", round: 1, reason: "bot_depth" } }]);
    expect(t.state.floor.bot_run).toBe(0);
  });

  it("resumes the rotation after the human's turn", async () => {
    const t = await broadcast(deep, ["a", "b", "c", "h"]);
    await t.say("a");
    await t.say("b");
    expect(moves(await t.say("h"))).toEqual([{ floor: { holder: "c", round: 1, reason: "turn" } }]);
  });

  it("rejects bots while the human holds the floor with E_NOT_FLOOR naming the human", async () => {
    const t = await broadcast(deep, ["a", "b", "c", "h"]);
    await t.say("a");
    await t.say("b");
    const error = await refusal(() => t.say("c"));
    expect(error).toMatchObject({ code: "E_NOT_FLOOR", details: { holder: "h" } });
  });

  it("resets the count on a human entry", async () => {
    const t = await broadcast(deep, ["a", "b", "c", "h"]);
    await t.say("a");
    await t.say("h", "keep going");
    expect(t.state.floor.bot_run).toBe(0);
    expect(moves(await t.say("b"))).toEqual([{ floor: { holder: "c", round: 1, reason: "turn" } }]);
  });

  it("does not count raised hands as bot turns", async () => {
    const t = await broadcast(deep, ["a", "b", "c", "h"]);
    await t.write("c", { kind: "raise_hand" });
    await t.say("a");
    expect(t.state.floor.bot_run).toBe(1);
    expect(t.holder).toBe("c");
  });

  it("closes the table with reason bot_depth when no human seat is present", async () => {
    const t = await broadcast(deep, ["a", "b", "c"]);
    await t.say("a");
    const added = await t.say("b");
    expect(moves(added)).toEqual([{ table_closed: { reason: "bot_depth" } }]);
    expect(t.state.closed).toEqual({ reason: "bot_depth", seq: added.at(-1)!.seq });
  });

  it("hands the floor of an open room to the human, who then releases it", async () => {
    const t = await room({ floor: { max_bot_depth: 2 } });
    await t.say("x");
    expect(moves(await t.say("y"))).toEqual([{ floor: { holder: "h", round: 0, reason: "bot_depth" } }]);
    expect((await refusal(() => t.say("x"))).details).toMatchObject({ holder: "h" });
    expect(moves(await t.say("h"))).toEqual([{ floor: { holder: null, round: 0, reason: "human_done" } }]);
    await t.say("x");
  });
});

describe("addressing and authorship", () => {
  it('accepts "to" naming seated seats and "re" naming the latest entry', async () => {
    const t = await broadcast();
    const latest = t.state.seq;
    const added = await t.write("a", { kind: "say", body: "to b", to: ["b", "c"], re: latest });
    expect(added[0]).toMatchObject({ to: ["b", "c"], re: latest });
  });

  describe("when the submission names what does not exist", () => {
    it('refuses "to" naming an unknown seat with E_UNKNOWN_SEAT', async () => {
      const t = await broadcast();
      expect((await refusal(() => t.write("a", { kind: "say", body: "hi", to: ["b", "ghost"] }))).code).toBe(
        "E_UNKNOWN_SEAT",
      );
    });

    it('refuses "to" naming a declared seat that has not joined with E_UNKNOWN_SEAT', async () => {
      const t = await broadcast({}, ["a", "b", "c"]);
      expect((await refusal(() => t.write("a", { kind: "proposal", body: "hi", to: ["h"] }))).code).toBe(
        "E_UNKNOWN_SEAT",
      );
    });

    // "constructor" is a valid name that a plain `in` check would find on Object.prototype.
    it('refuses "to" naming a seat called constructor that never joined with E_UNKNOWN_SEAT', async () => {
      const t = await broadcast({}, ["a", "b", "c"]);
      expect((await refusal(() => t.write("a", { kind: "say", body: "hi", to: ["constructor"] }))).code).toBe(
        "E_UNKNOWN_SEAT",
      );
    });

    it('refuses "re" pointing at a future seq with E_NOT_ALLOWED', async () => {
      const t = await broadcast();
      expect((await refusal(() => t.write("a", { kind: "say", body: "hi", re: t.state.seq + 1 }))).code).toBe(
        "E_NOT_ALLOWED",
      );
    });

    it("refuses a seat that never joined with E_UNKNOWN_SEAT", async () => {
      const t = await broadcast();
      const draft = { ...(await draftOf(t, "a", { kind: "say", body: "hi" })), seat: "ghost" } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, draft, t.l.now))).code).toBe("E_UNKNOWN_SEAT");
    });

    it("refuses an entry recorded under another key than the seat's with E_BAD_SIGNATURE", async () => {
      const t = await broadcast();
      const draft = await draftOf(t, "a", { kind: "say", body: "hi" });
      const other = {
        ...draft,
        author: { ...draft.author, key: (await keyOf("seat:b")).publicKeyText },
      } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, other, t.l.now))).code).toBe("E_BAD_SIGNATURE");
    });

    it("refuses an entry for another table with E_WRONG_TABLE", async () => {
      const t = await broadcast();
      const draft = { ...(await draftOf(t, "a", { kind: "say", body: "hi" })), table: "t-other" } as AuthoredDraft;
      expect((await refusal(() => admit(t.state, draft, t.l.now))).code).toBe("E_WRONG_TABLE");
    });
  });
});
