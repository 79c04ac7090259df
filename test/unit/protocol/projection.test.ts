/**
 * Projections (docs/SPEC.md §7): a stable prefix named by its hash, a tail without timestamps,
 * signatures or chain hashes, and long bodies cut to an `entry:<seq>` reference.
 */
import { describe, expect, it } from "vitest";
import {
  buildProjection,
  canonicalSha256,
  fold,
  LIMITS,
  ProjectionSchema,
  projectEntry,
  projectionPrefix,
  type Entry,
  type Projection,
} from "../../../src/protocol/index.js";
import { cast } from "../../support/table-fixture.js";
import { broadcastConfig, broadcastTable, debateTable, TestTable } from "./fixtures.js";
import { delegationConfig, hubConfig, pipelineConfig } from "./topology-fixtures.js";

const k = await cast();

/** The projection for `seat` with every entry after `after` in its tail. */
function projectionOf(t: TestTable, seat: string, after = 0): Projection {
  const entries = t.l.entries.filter((e) => e.seq > after);
  return buildProjection(t.state, seat, { entries, cursor: t.state.seq, more: false });
}

/** Every object key anywhere inside `value`. */
function keysIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysIn(v, into));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      into.add(key);
      keysIn(v, into);
    }
  }
  return into;
}

describe("buildProjection", () => {
  it("matches the projection schema and names the seat, floor and cursor", async () => {
    const t = await debateTable(k);
    await t.say("bot-tao");
    const p = ProjectionSchema.parse(projectionOf(t, "bot-jenny"));
    expect(p).toMatchObject({
      table: "t-459",
      seat: "bot-jenny",
      cursor: 7,
      more: false,
      closed: null,
      floor: { holder: "bot-jenny", round: 1, yours: true },
    });
    expect(p.tail.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("carries no timestamps, signatures, keys, nonces, leaves or links anywhere", async () => {
    const t = await debateTable(k, { floor: { max_chars: 20 } });
    await t.write("bot-tao", {
      kind: "say",
      body: "a body long enough to be cut by the floor",
      to: ["bot-jenny"],
      re: 2,
      refs: ["entry:1"],
    });
    await t.say("bot-jenny");
    const p = projectionOf(t, "judge");
    const keys = keysIn(p);
    for (const forbidden of [
      "ts",
      "sig",
      "author",
      "key",
      "seat_key",
      "public_key",
      "nonce",
      "leaf",
      "link",
      "expires",
      "card_sha256",
      "body_sha256",
      "owners",
      "relay",
    ]) {
      expect(keys, forbidden).not.toContain(forbidden);
    }
    const text = JSON.stringify(p);
    for (const e of t.l.entries) {
      expect(text).not.toContain(String(e.ts));
      expect(text).not.toContain(e.leaf);
      expect(text).not.toContain(e.link);
    }
    for (const signer of [k.relay, k.tao, k.jenny, k.ops, k.botTao, k.botJenny, k.judge])
      expect(text).not.toContain(signer.publicKeyText);
  });

  it("shows addressing, refs and the truncation flag of an entry", async () => {
    const t = await debateTable(k, { floor: { max_chars: 20 } });
    const [say] = await t.write("bot-tao", {
      kind: "say",
      body: "a body long enough to be cut by the floor",
      to: ["bot-jenny"],
      re: 2,
      refs: ["entry:1"],
    });
    expect(projectEntry(say!)).toEqual({
      seq: 6,
      kind: "say",
      seat: "bot-tao",
      to: ["bot-jenny"],
      re: 2,
      refs: ["entry:1"],
      body: "a body long enough t",
      truncated: true,
    });
  });

  it("shows system entries by their public data only", async () => {
    const t = await debateTable(k);
    const [opened, joined, , , floor] = t.l.entries;
    expect(projectEntry(opened!)).toEqual({
      seq: 1,
      kind: "system",
      subkind: "table_opened",
      data: { topic: "Should #459 ship before #461?", creator: "ops" },
    });
    expect(projectEntry(joined!)).toEqual({
      seq: 2,
      kind: "system",
      subkind: "seat_joined",
      data: { seat: "bot-tao", owner: "tao", human: false },
    });
    expect(projectEntry(floor!)).toEqual({
      seq: 5,
      kind: "system",
      subkind: "floor",
      data: { holder: "bot-tao", round: 1, reason: "start" },
    });
  });

  it("leaves out an empty body", async () => {
    const t = await debateTable(k);
    const [pass] = await t.write("bot-tao", { kind: "pass" });
    expect(projectEntry(pass!)).toEqual({ seq: 6, kind: "pass", seat: "bot-tao" });
  });

  it("puts only the entries it is given in the tail (O(tail))", async () => {
    const t = await debateTable(k);
    await t.say("bot-tao");
    await t.say("bot-jenny");
    expect(projectionOf(t, "judge", 7).tail.map((e) => e.seq)).toEqual([8, 9]);
  });

  it("reports the close reason once the table closed", async () => {
    const t = await debateTable(k, { floor: { decision_by: "any" } });
    await t.write("bot-tao", { kind: "decision", body: "done" });
    expect(projectionOf(t, "judge")).toMatchObject({ closed: "decision", floor: { holder: null, yours: false } });
  });
});

describe("the projection prefix", () => {
  it("holds the rules, the present seats with cards, and the decisions in force", async () => {
    const t = await debateTable(k, { floor: { max_chars: 500 } });
    const prefix = projectionPrefix(t.state);
    expect(prefix).toEqual({
      table: "t-459",
      topic: "Should #459 ship before #461?",
      rules: {
        topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 2 },
        floor: { max_chars: 500 },
        termination: { any: ["decision", "rounds_exhausted"] },
      },
      seats: [
        { name: "bot-tao", owner: "tao", human: false, card: { summary: "bot-tao at the table" } },
        { name: "bot-jenny", owner: "jenny", human: false, card: { summary: "bot-jenny at the table" } },
        { name: "judge", owner: "ops", human: false, card: { summary: "judge at the table" } },
      ],
      decisions: [],
    });
    expect(projectionOf(t, "judge").prefix_sha256).toBe(canonicalSha256(prefix));
  });

  it("keeps prefix_sha256 equal across ordinary says, passes, hands and floor moves", async () => {
    const t = await broadcastTable(k, { termination: { any: ["decision", "rounds_exhausted"] } });
    const hashes = new Set([projectionOf(t, "a").prefix_sha256]);
    await t.say("a");
    hashes.add(projectionOf(t, "a").prefix_sha256);
    await t.write("c", { kind: "raise_hand" });
    await t.write("b", { kind: "pass" });
    hashes.add(projectionOf(t, "b").prefix_sha256);
    await t.write("c", { kind: "proposal", body: "ship both" });
    hashes.add(projectionOf(t, "c").prefix_sha256);
    expect(hashes.size).toBe(1);
  });

  it("is the same for every seat at one moment", async () => {
    const t = await debateTable(k);
    await t.say("bot-tao");
    const hashes = ["bot-tao", "bot-jenny", "judge"].map((s) => projectionOf(t, s).prefix_sha256);
    expect(new Set(hashes).size).toBe(1);
  });

  it("changes when a seat joins", async () => {
    const t = await broadcastTable(k);
    const before = projectionOf(t, "a").prefix_sha256;
    await t.join("h");
    expect(projectionOf(t, "a").prefix_sha256).not.toBe(before);
  });

  it("changes when a decision lands", async () => {
    const t = await broadcastTable(k, { termination: { any: [{ max_entries: 10 }, "rounds_exhausted"] } });
    await t.say("a");
    const before = projectionOf(t, "a").prefix_sha256;
    const [decision] = await t.write("b", { kind: "decision", body: "#459 first" });
    const after = projectionOf(t, "a");
    expect(after.prefix_sha256).not.toBe(before);
    expect(after.prefix.decisions).toEqual([{ seq: decision!.seq, seat: "b", body: "#459 first" }]);
  });
});

describe("long bodies in the tail", () => {
  async function saidBody(body: string): Promise<Entry> {
    const t = await debateTable(k);
    const [say] = await t.say("bot-tao", body);
    return say!;
  }

  it(`cuts a body longer than ${LIMITS.projection_body_chars} chars and points to the full entry`, async () => {
    const say = await saidBody("b".repeat(LIMITS.projection_body_chars + 500));
    expect(projectEntry(say)).toEqual({
      seq: 6,
      kind: "say",
      seat: "bot-tao",
      body: "b".repeat(LIMITS.projection_body_chars),
      more: "entry:6",
    });
  });

  it("keeps a body of exactly the limit whole", async () => {
    const say = await saidBody("b".repeat(LIMITS.projection_body_chars));
    const projected = projectEntry(say);
    expect(projected.body).toHaveLength(LIMITS.projection_body_chars);
    expect(projected).not.toHaveProperty("more");
  });

  it("never splits a surrogate pair at the cut", async () => {
    const say = await saidBody("b".repeat(LIMITS.projection_body_chars - 1) + "\u{1F602}".repeat(10));
    const projected = projectEntry(say);
    expect(projected.body).toBe("b".repeat(LIMITS.projection_body_chars - 1));
    expect(projected.more).toBe("entry:6");
  });

  it("cuts a body shaped as sealed text outside an e2e room, and keeps it whole only in one", async () => {
    const body = `e2e1:${"A".repeat(LIMITS.projection_body_chars + 500)}`;
    const say = await saidBody(body);
    expect(projectEntry(say)).toMatchObject({ body: body.slice(0, LIMITS.projection_body_chars), more: "entry:6" });
    expect(projectEntry(say, true)).toEqual({ seq: 6, kind: "say", seat: "bot-tao", body });
  });
});

describe("prefix_sha256 over a whole session", () => {
  /** Seqs after which the prefix `seat` reads changed, computed by folding the ledger entry by entry. */
  function prefixChanges(entries: readonly Entry[], seat?: string): number[] {
    const hashes = entries.map((_, i) => canonicalSha256(projectionPrefix(fold(entries.slice(0, i + 1)), seat)));
    return entries.flatMap((e, i) => (i > 0 && hashes[i] !== hashes[i - 1] ? [e.seq] : []));
  }

  /** Seqs of the entries that should change a prefix: joins, leaves and decisions. */
  function joinsAndDecisions(entries: readonly Entry[]): number[] {
    const changes = (e: Entry) =>
      e.kind === "decision" ||
      (e.kind === "system" && (e.subkind === "seat_joined" || e.subkind === "seat_left" || e.subkind === "decision"));
    return entries.filter(changes).map((e) => e.seq);
  }

  it("changes exactly on joins and decisions in a broadcast with hands, passes, proposals and votes", async () => {
    const t = await broadcastTable(k, {
      topology: { kind: "broadcast", order: ["a", "b", "c"] },
      termination: { any: [{ max_entries: 60 }, { quorum: { n: 3, of: "seats" } }] },
    });
    for (let round = 0; round < 3; round++) {
      await t.say(t.holder!);
      const raiser = ["a", "b", "c"].find((s) => s !== t.holder && !t.state.floor.hands.includes(s))!;
      await t.write(raiser, { kind: "raise_hand" });
      await t.write(t.holder!, { kind: "pass" });
      await t.write(t.holder!, { kind: "decision", body: `interim ${round}` });
    }
    await t.join("h");
    const [p] = await t.write(t.holder!, { kind: "proposal", body: "final" });
    for (const seat of ["a", "b", "h"]) await t.write(seat, { kind: "vote", re: p!.seq, choice: "yes" });
    expect(t.state.closed?.reason).toBe("quorum");
    expect(prefixChanges(t.l.entries)).toEqual(joinsAndDecisions(t.l.entries));
  });

  it("stays equal across every ordinary round of a pipeline, a hub_spoke and a delegation table", async () => {
    const pipeline = await TestTable.open(
      pipelineConfig(k, { topology: { kind: "pipeline", stages: ["draft", "review", "edit"], rounds: 3 } }),
      ["draft", "review", "edit"],
      k,
    );
    for (let i = 0; i < 8; i++)
      await pipeline.write(pipeline.holder!, { kind: "say", body: "out", to: [["review", "edit", "draft"][i % 3]!] });
    await pipeline.say("edit", "final");
    const hub = await TestTable.open(
      hubConfig(k, { topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b", "c"], rounds: 3 } }),
      ["mod", "a", "b", "c"],
      k,
    );
    for (const spoke of ["a", "b", "c"]) {
      await hub.write("mod", { kind: "say", body: "you", to: [spoke] });
      await hub.write(spoke, { kind: "say", body: "me", to: ["mod"] });
    }
    await hub.write("mod", { kind: "decision", body: "done" });
    const lines = await TestTable.open(delegationConfig(k), ["lead", "m1", "m2", "w1", "w2", "w3"], k);
    for (const [from, to] of [
      ["lead", "m1"],
      ["m1", "w2"],
      ["w2", "m1"],
      ["m1", "lead"],
      ["lead", "m2"],
      ["m2", "w3"],
      ["w3", "m2"],
      ["m2", "lead"],
    ]) {
      await lines.write(from!, { kind: "say", body: "x", to: [to!] });
    }
    await lines.write("lead", { kind: "decision", body: "done" });
    for (const t of [pipeline, hub, lines]) {
      expect(t.state.closed).not.toBeNull();
      expect(prefixChanges(t.l.entries)).toEqual(joinsAndDecisions(t.l.entries));
    }
  });

  it("changes when a seat leaves by shutdown, not on the request, a rejected shutdown or a plan approval", async () => {
    const t = await TestTable.open(broadcastConfig(k), ["a", "b", "c", "h"], k);
    const ask = (seat: string, id: string, type: string, to: string[]) =>
      t.write(seat, { kind: "request", request_id: id, type, body: `${type}?`, to });
    const answer = (seat: string, id: string, type: string, verdict: "approve" | "reject") =>
      t.write(seat, { kind: "response", request_id: id, type, body: "answer", verdict });
    await ask("h", "plan-a", "plan_approval", ["a"]);
    await answer("a", "plan-a", "plan_approval", "approve");
    await ask("h", "bye-c", "shutdown", ["c"]);
    await answer("c", "bye-c", "shutdown", "reject");
    await t.say("a");
    await ask("h", "bye-b", "shutdown", ["b"]);
    const left = await answer("b", "bye-b", "shutdown", "approve");
    expect(left.map((e) => (e.kind === "system" ? e.subkind : e.kind))).toContain("seat_left");
    await t.say("c");
    const changes = prefixChanges(t.l.entries);
    expect(changes).toEqual(joinsAndDecisions(t.l.entries));
    expect(changes[changes.length - 1]).toBe(left.find((e) => e.kind === "system" && e.subkind === "seat_left")!.seq);
  });

  it("changes for a seat with a visibility rule only on joins and the decisions it may read", async () => {
    const t = await broadcastTable(k, {
      topology: { kind: "broadcast", order: ["a", "b", "c"] },
      termination: { any: [{ max_entries: 60 }] },
      visibility: { c: { seats: ["a"] } },
    });
    await t.write("a", { kind: "decision", body: "a's decision" });
    await t.write("b", { kind: "decision", body: "b's decision" });
    await t.say("c");
    const joins = t.l.entries.filter((e) => e.kind === "system" && e.subkind === "seat_joined").map((e) => e.seq);
    const [aDecision] = t.l.entries.filter((e) => e.kind === "decision" && e.seat === "a");
    expect(prefixChanges(t.l.entries, "c")).toEqual([...joins, aDecision!.seq]);
    expect(prefixChanges(t.l.entries, "a")).toEqual(joinsAndDecisions(t.l.entries));
  });
});
