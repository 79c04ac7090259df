/**
 * Projections (docs/SPEC.md §7): a stable prefix named by its hash, a tail without timestamps,
 * signatures or chain hashes, and long bodies cut to an `entry:<seq>` reference.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildProjection,
  canonicalSha256,
  LIMITS,
  ProjectionSchema,
  projectEntry,
  projectionPrefix,
  type Entry,
  type Projection,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, TestTable } from "./fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

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

const debate = (overrides: Partial<TableConfig> = {}) => TestTable.open(debateConfig(k, overrides), undefined, k);

describe("buildProjection", () => {
  it("matches the projection schema and names the seat, floor and cursor", async () => {
    const t = await debate();
    await t.say("bot-tao");
    const p = ProjectionSchema.parse(projectionOf(t, "bot-jenny"));
    expect(p).toMatchObject({ table: "t-459", seat: "bot-jenny", cursor: 7, more: false, closed: null, floor: { holder: "bot-jenny", round: 1, yours: true } });
    expect(p.tail.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("carries no timestamps, signatures, keys, nonces, leaves or links anywhere", async () => {
    const t = await debate({ floor: { max_chars: 20 } });
    await t.write("bot-tao", { kind: "say", body: "a body long enough to be cut by the floor", to: ["bot-jenny"], re: 2, refs: ["entry:1"] });
    await t.say("bot-jenny");
    const p = projectionOf(t, "judge");
    const keys = keysIn(p);
    for (const forbidden of ["ts", "sig", "author", "key", "seat_key", "public_key", "nonce", "leaf", "link", "expires", "card_sha256", "body_sha256", "owners", "relay"]) {
      expect(keys, forbidden).not.toContain(forbidden);
    }
    const text = JSON.stringify(p);
    for (const e of t.l.entries) {
      expect(text).not.toContain(String(e.ts));
      expect(text).not.toContain(e.leaf);
      expect(text).not.toContain(e.link);
    }
    for (const signer of [k.relay, k.tao, k.jenny, k.ops, k.botTao, k.botJenny, k.judge]) expect(text).not.toContain(signer.publicKeyText);
  });

  it("shows addressing, refs and the truncation flag of an entry", async () => {
    const t = await debate({ floor: { max_chars: 20 } });
    const [say] = await t.write("bot-tao", { kind: "say", body: "a body long enough to be cut by the floor", to: ["bot-jenny"], re: 2, refs: ["entry:1"] });
    expect(projectEntry(say!)).toEqual({ seq: 6, kind: "say", seat: "bot-tao", to: ["bot-jenny"], re: 2, refs: ["entry:1"], body: "a body long enough t", truncated: true });
  });

  it("shows system entries by their public data only", async () => {
    const t = await debate();
    const [opened, joined, , , floor] = t.l.entries;
    expect(projectEntry(opened!)).toEqual({ seq: 1, kind: "system", subkind: "table_opened", data: { topic: "Should #459 ship before #461?", creator: "ops" } });
    expect(projectEntry(joined!)).toEqual({ seq: 2, kind: "system", subkind: "seat_joined", data: { seat: "bot-tao", owner: "tao", human: false } });
    expect(projectEntry(floor!)).toEqual({ seq: 5, kind: "system", subkind: "floor", data: { holder: "bot-tao", round: 1, reason: "start" } });
  });

  it("leaves out an empty body", async () => {
    const t = await debate();
    const [pass] = await t.write("bot-tao", { kind: "pass" });
    expect(projectEntry(pass!)).toEqual({ seq: 6, kind: "pass", seat: "bot-tao" });
  });

  it("puts only the entries it is given in the tail (O(tail))", async () => {
    const t = await debate();
    await t.say("bot-tao");
    await t.say("bot-jenny");
    expect(projectionOf(t, "judge", 7).tail.map((e) => e.seq)).toEqual([8, 9]);
  });

  it("reports the close reason once the table closed", async () => {
    const t = await debate({ floor: { decision_by: "any" } });
    await t.write("bot-tao", { kind: "decision", body: "done" });
    expect(projectionOf(t, "judge")).toMatchObject({ closed: "decision", floor: { holder: null, yours: false } });
  });
});

describe("the projection prefix", () => {
  it("holds the rules, the present seats with cards, and the decisions in force", async () => {
    const t = await debate({ floor: { max_chars: 500 } });
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
    const t = await TestTable.open(broadcastConfig(k, { termination: { any: ["decision", "rounds_exhausted"] } }), ["a", "b", "c"], k);
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
    const t = await debate();
    await t.say("bot-tao");
    const hashes = ["bot-tao", "bot-jenny", "judge"].map((s) => projectionOf(t, s).prefix_sha256);
    expect(new Set(hashes).size).toBe(1);
  });

  it("changes when a seat joins", async () => {
    const t = await TestTable.open(broadcastConfig(k), ["a", "b", "c"], k);
    const before = projectionOf(t, "a").prefix_sha256;
    await t.join("h");
    expect(projectionOf(t, "a").prefix_sha256).not.toBe(before);
  });

  it("changes when a decision lands", async () => {
    const t = await TestTable.open(broadcastConfig(k, { termination: { any: [{ max_entries: 10 }, "rounds_exhausted"] } }), ["a", "b", "c"], k);
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
    const t = await debate();
    const [say] = await t.say("bot-tao", body);
    return say!;
  }

  it(`cuts a body longer than ${LIMITS.projection_body_chars} chars and points to the full entry`, async () => {
    const say = await saidBody("b".repeat(LIMITS.projection_body_chars + 500));
    expect(projectEntry(say)).toEqual({ seq: 6, kind: "say", seat: "bot-tao", body: "b".repeat(LIMITS.projection_body_chars), more: "entry:6" });
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
});
