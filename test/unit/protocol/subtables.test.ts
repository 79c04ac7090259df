/**
 * Sub-tables (docs/SPEC.md §5.9), policy level: a parent's seat opens a child with a subset of the
 * parent's seats (no re-join: the child's first entry carries their joins), the child runs its own
 * topology and ledger, and its close becomes exactly one relay-signed subtable_result at the parent.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  canonicalize,
  controlDraft,
  checkResultAgainstChild,
  childOpeningDraft,
  createDraft,
  exportText,
  projectEntry,
  resultStatement,
  signCreate,
  signStatement,
  signSubtable,
  subtableOpenedDraft,
  subtableResultDraft,
  verifyExport,
  type Entry,
  type SystemDraftOf,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, keyOf, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, copy, kindOf, rechain, refusal, TestTable } from "./fixtures.js";
import { snapshot } from "./topology-fixtures.js";
import { approve, CARD_EFFECT } from "./gateway-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** The parent: an unbounded broadcast of a, b, c with a human h. */
const parentTable = () =>
  TestTable.open(
    broadcastConfig(k, {
      id: "t-root",
      topology: { kind: "broadcast", order: ["a", "b", "c"] },
      termination: { any: [{ max_entries: 100 }] },
    }),
    ["a", "b", "c", "h"],
    k,
  );

/** A child of `parent` seating `seats` (as the parent declares them) in a one-round broadcast that ends on a decision. */
function childConfig(
  parent: TestTable,
  id: string,
  seats: string[],
  overrides: Partial<TableConfig> = {},
): TableConfig {
  const declared = parent.config.seats!;
  return {
    id,
    topic: `sub-question of ${parent.config.id}`,
    owners: parent.config.owners,
    seats: Object.fromEntries(seats.map((s) => [s, declared[s]!])),
    topology: { kind: "broadcast", order: seats.filter((s) => !declared[s]!.human), rounds: 1 },
    termination: { any: ["decision", "rounds_exhausted"] },
    parent: parent.config.id,
    ...overrides,
  };
}

const relayPinned = () => ({ relayKey: k.relay.publicKeyText });
const subtableEntries = (t: TestTable, subkind: string) =>
  t.l.entries.filter((e) => e.kind === "system" && e.subkind === subkind);

describe("opening a sub-table", () => {
  it("records subtable_opened at the parent, signed by the opening seat, and seats the child without joins", async () => {
    const root = await parentTable();
    const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
    const [opened] = subtableEntries(root, "subtable_opened");
    expect(opened).toMatchObject({
      author: { key: (await root.seatKey("a")).publicKeyText },
      data: { opener: "a", config: { id: "t-child" } },
    });
    expect(root.state.subtables).toEqual({ "t-child": { opened: opened!.seq, result: null } });
    expect(child.l.entries.map(kindOf)).toEqual(["table_opened", "floor"]);
    expect(child.l.entries[0]).toMatchObject({
      data: { creator: "tao", parent: { table: "t-root", seq: opened!.seq, opener: "a" } },
    });
    expect(Object.values(child.state.seats).map((s) => [s.name, s.owner, s.key, s.joined])).toEqual([
      ["a", "tao", root.state.seats.a!.key, 1],
      ["b", "jenny", root.state.seats.b!.key, 1],
    ]);
    expect(child.holder).toBe("a");
  });

  it("gives the child its own ledger that verifies CLEAN on its own, carried join signatures included", async () => {
    const root = await parentTable();
    const child = await root.openChild("b", childConfig(root, "t-child", ["a", "b"]));
    await child.say("a");
    const report = await verifyExport(await child.exportText(), relayPinned());
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { signatures: 4, policy_replay: "full" } });
  });

  it("runs the child's own topology, whatever the parent's", async () => {
    const root = await parentTable();
    const child = await root.openChild(
      "a",
      childConfig(root, "t-hub-child", ["a", "b", "c"], {
        topology: { kind: "hub_spoke", hub: "c", spokes: ["a", "b"], rounds: 1 },
      }),
    );
    expect(child.holder).toBe("c");
    await child.write("c", { kind: "say", body: "b first", to: ["b"] });
    expect(child.holder).toBe("b");
  });

  it("leaves the parent's prefix and floor unchanged", async () => {
    const root = await parentTable();
    const [holder, seats] = [root.holder, JSON.stringify(root.state.seats)];
    await root.openChild("c", childConfig(root, "t-child", ["a", "c"]));
    expect(root.holder).toBe(holder);
    expect(JSON.stringify(root.state.seats)).toBe(seats);
  });

  it("projects subtable_opened without hashes or keys", async () => {
    const root = await parentTable();
    await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
    expect(projectEntry(subtableEntries(root, "subtable_opened")[0]!)).toEqual({
      seq: root.state.seq,
      kind: "system",
      subkind: "subtable_opened",
      data: { table: "t-child", topic: "sub-question of t-root", opener: "a", seats: ["a", "b"] },
    });
  });

  describe("when the parent refuses the opening", () => {
    async function attempt(root: TestTable, seat: string, config: TableConfig, signer = seat) {
      const request = await signSubtable(await root.seatKey(signer), config, seat);
      return () => admit(root.state, subtableOpenedDraft(root.state, request), root.l.now);
    }

    it.each([
      [
        "a seat the parent does not have",
        (c: TableConfig): void => {
          c.seats!.ghost = { owner: "tao" };
        },
        "E_UNKNOWN_SEAT",
      ],
      [
        "a seat under another owner",
        (c: TableConfig): void => {
          c.seats!.b = { owner: "tao" };
        },
        "E_FORBIDDEN",
      ],
      [
        "a bot seat declared human",
        (c: TableConfig): void => {
          c.seats!.b = { owner: "jenny", human: true };
        },
        "E_FORBIDDEN",
      ],
      [
        "an owner key the parent does not list",
        (c: TableConfig): void => {
          c.owners.tao = { public_key: k.judge.publicKeyText };
        },
        "E_NOT_OWNER",
      ],
      [
        "an owner the parent does not have",
        (c: TableConfig): void => {
          c.owners.eve = { public_key: k.judge.publicKeyText };
        },
        "E_NOT_OWNER",
      ],
      [
        "another parent",
        (c: TableConfig): void => {
          c.parent = "t-elsewhere";
        },
        "E_WRONG_TABLE",
      ],
      [
        "the parent's own id",
        (c: TableConfig): void => {
          c.id = "t-root";
        },
        "E_SCHEMA",
      ],
    ] as const)("refuses a child config with %s", async (_what, change, code) => {
      const root = await parentTable();
      const config = copy(childConfig(root, "t-child", ["a", "b"]));
      change(config);
      const before = snapshot(root);
      expect((await refusal(await attempt(root, "a", config))).code).toBe(code);
      expect(snapshot(root)).toBe(before);
    });

    it("refuses an opener outside the child's seats with E_FORBIDDEN", async () => {
      const root = await parentTable();
      expect((await refusal(await attempt(root, "c", childConfig(root, "t-child", ["a", "b"])))).code).toBe(
        "E_FORBIDDEN",
      );
    });

    it("refuses a seat that is not at the parent as opener with E_UNKNOWN_SEAT", async () => {
      const root = await parentTable();
      const request = await signSubtable(await keyOf("seat:ghost"), childConfig(root, "t-child", ["a", "b"]), "ghost");
      expect((await refusal(() => subtableOpenedDraft(root.state, request))).code).toBe("E_UNKNOWN_SEAT");
    });

    it("refuses an opening recorded under another seat's key with E_BAD_SIGNATURE", async () => {
      const root = await parentTable();
      const request = await signSubtable(await root.seatKey("a"), childConfig(root, "t-child", ["a", "b"]), "a");
      const draft = subtableOpenedDraft(root.state, request);
      const forged = { ...draft, author: { ...draft.author, key: root.state.seats.b!.key } };
      expect((await refusal(() => admit(root.state, forged, root.l.now))).code).toBe("E_BAD_SIGNATURE");
    });

    it("refuses opening the same child id twice with E_TABLE_EXISTS", async () => {
      const root = await parentTable();
      await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
      expect((await refusal(await attempt(root, "b", childConfig(root, "t-child", ["b", "c"])))).code).toBe(
        "E_TABLE_EXISTS",
      );
    });

    it("refuses a child without declared seats with E_SCHEMA", async () => {
      const root = await parentTable();
      const { seats: _seats, ...config } = childConfig(root, "t-child", ["a", "b"]);
      const request = await signSubtable(await root.seatKey("a"), config as TableConfig, "a");
      expect((await refusal(() => subtableOpenedDraft(root.state, request))).code).toBe("E_SCHEMA");
    });

    it("refuses an opening at a paused parent with E_PAUSED", async () => {
      const root = await parentTable();
      root.l.append(
        controlDraft(root.state, { owner: "tao", action: "pause", via: "telegram", nonce: "pause-nonce-0123456789" }),
      );
      const before = snapshot(root);
      expect(await refusal(await attempt(root, "a", childConfig(root, "t-child", ["a", "b"])))).toMatchObject({
        code: "E_PAUSED",
        details: { seat: "a" },
      });
      expect(snapshot(root)).toBe(before);
    });

    it("refuses an opening at a closed parent with E_CLOSED", async () => {
      const root = await TestTable.open(
        broadcastConfig(k, { id: "t-root", termination: { any: ["decision", "rounds_exhausted"] } }),
        ["a", "b", "c"],
        k,
      );
      await root.write("a", { kind: "decision", body: "done" });
      expect((await refusal(await attempt(root, "a", childConfig(root, "t-child", ["a", "b"])))).code).toBe("E_CLOSED");
    });
  });

  describe("when the child's opening entry is not what the parent recorded", () => {
    async function opening(root: TestTable) {
      const config = childConfig(root, "t-child", ["a", "b"]);
      const request = await signSubtable(await root.seatKey("a"), config, "a");
      const [opened] = root.l.append(subtableOpenedDraft(root.state, request)) as [
        Extract<Entry, { subkind: "subtable_opened" }>,
      ];
      const joins = ["a", "b"].map((s) => {
        const e = root.l.entries[root.state.seats[s]!.joined - 1]!;
        return e.kind === "system" && e.subkind === "seat_joined"
          ? { join: e.data.join, card: e.data.card, sig: e.author.sig }
          : null;
      }) as { join: never; card: never; sig: string }[];
      return childOpeningDraft(opened, { seq: opened.seq, joins }, k.relay.publicKeyText);
    }
    const tamper = (draft: SystemDraftOf<"table_opened">, change: (d: SystemDraftOf<"table_opened">) => void) => {
      const copyDraft = copy(draft);
      change(copyDraft);
      return () => admit(null, copyDraft, 1);
    };

    it("accepts the untouched opening", async () => {
      const draft = await opening(await parentTable());
      expect(admit(null, draft, 1).entries.map(kindOf)).toEqual(["table_opened", "floor"]);
    });

    it.each([
      [
        "a missing carried join",
        (d: SystemDraftOf<"table_opened">): void => {
          d.data.parent!.joins.pop();
        },
        "E_SCHEMA",
      ],
      [
        "a join carried twice",
        (d: SystemDraftOf<"table_opened">): void => {
          d.data.parent!.joins[1] = d.data.parent!.joins[0]!;
        },
        "E_SCHEMA",
      ],
      [
        "a join under another owner",
        (d: SystemDraftOf<"table_opened">): void => {
          d.data.parent!.joins[1]!.join.owner = "tao";
        },
        "E_FORBIDDEN",
      ],
      [
        "a card that is not the signed one",
        (d: SystemDraftOf<"table_opened">): void => {
          d.data.parent!.joins[0]!.card = { summary: "edited" };
        },
        "E_SCHEMA",
      ],
      [
        "an author other than the opener",
        (d: SystemDraftOf<"table_opened">): void => {
          d.author.key = d.data.parent!.joins[1]!.join.seat_key;
        },
        "E_BAD_SIGNATURE",
      ],
      [
        "a creator other than the opener's owner",
        (d: SystemDraftOf<"table_opened">): void => {
          d.data.creator = "jenny";
        },
        "E_NOT_OWNER",
      ],
      [
        "no parent link",
        (d: SystemDraftOf<"table_opened">): void => {
          delete d.data.parent;
        },
        "E_SCHEMA",
      ],
    ] as const)("refuses %s", async (_what, change, code) => {
      const draft = await opening(await parentTable());
      expect((await refusal(tamper(draft, change))).code).toBe(code);
    });

    it("refuses a plain create of a config naming a parent with E_SCHEMA", async () => {
      const root = await parentTable();
      const draft = createDraft(
        await signCreate(k.ops, childConfig(root, "t-child", ["a", "b"]), "ops"),
        k.relay.publicKeyText,
      );
      expect((await refusal(() => admit(null, draft, 1))).code).toBe("E_SCHEMA");
    });

    it("refutes a child ledger whose carried join signature was altered", async () => {
      const root = await parentTable();
      const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
      const entries = copy(child.l.entries);
      const opened = entries[0]!;
      if (opened.kind !== "system" || opened.subkind !== "table_opened") throw new Error("not opened");
      const [first] = opened.data.parent!.joins;
      first!.sig = opened.data.parent!.joins[1]!.sig;
      const forged = rechain(entries);
      const report = await verifyExport(
        exportText({ table: "t-child", relay: k.relay.publicKeyText }, forged, []),
        relayPinned(),
      );
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 1, reason: "the join signature does not verify" },
      });
    });
  });
});

describe("closing a sub-table", () => {
  /** Opens t-child (a, b) under a fresh root and runs it to a decision by b. */
  async function decided() {
    const root = await parentTable();
    const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
    await child.say("a", "a's view");
    await child.write("b", { kind: "decision", body: "go with a's view", refs: ["entry:3"] });
    return { root, child };
  }

  it("appends exactly one relay-signed subtable_result with the child's decision and refs, nothing else", async () => {
    const { root, child } = await decided();
    const added = await root.report(child);
    expect(added.map(kindOf)).toEqual(["subtable_result"]);
    const last = child.l.entries.at(-1)!;
    expect(added[0]).toMatchObject({
      author: { key: k.relay.publicKeyText },
      data: {
        table: "t-child",
        seq: last.seq,
        link: last.link,
        reason: "decision",
        decision: { seq: 5, seat: "b", body: "go with a's view", refs: ["entry:3"] },
      },
    });
    expect(Object.keys((added[0] as Extract<Entry, { subkind: "subtable_result" }>).data).sort()).toEqual([
      "decision",
      "link",
      "reason",
      "seq",
      "table",
    ]);
    expect(root.state.subtables["t-child"]).toEqual({ opened: expect.any(Number), result: added[0]!.seq });
  });

  it("lets the parent's replay accept the result: the parent verifies CLEAN", async () => {
    const { root, child } = await decided();
    await root.report(child);
    expect(await verifyExport(await root.exportText(), relayPinned())).toMatchObject({
      verdict: "CLEAN",
      coverage: { policy_replay: "full" },
    });
  });

  it("matches the child's own ledger: its final head, close reason and decision", async () => {
    const { root, child } = await decided();
    const [result] = await root.report(child);
    expect(checkResultAgainstChild(result!, child.l.entries)).toBeNull();
    const forged = copy(result!) as Extract<Entry, { subkind: "subtable_result" }>;
    forged.data.decision!.body = "something else";
    expect(checkResultAgainstChild(forged, child.l.entries)).toMatch(/differs/);
    forged.data.link = "0".repeat(64);
    expect(checkResultAgainstChild(forged, child.l.entries)).toMatch(/does not have the reported link/);
  });

  it("recomputes the child's leaves from their content: an altered child entry that keeps its leaf does not match", async () => {
    const { root, child } = await decided();
    const [result] = await root.report(child);
    const altered = copy(child.l.entries);
    const entry = altered.find((e) => e.seq < 5 && e.kind === "system")!;
    entry.ts += 1;
    expect(checkResultAgainstChild(result!, altered)).toMatch(/does not have the reported link/);
  });

  it("reports a close without a decision with decision null", async () => {
    const root = await parentTable();
    const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
    await child.say("a");
    await child.say("b");
    expect(child.state.closed?.reason).toBe("rounds_exhausted");
    const [result] = await root.report(child);
    expect(result).toMatchObject({ data: { reason: "rounds_exhausted", decision: null } });
  });

  it("projects the result with the decision's body, without hashes", async () => {
    const { root, child } = await decided();
    const [result] = await root.report(child);
    expect(projectEntry(result!)).toEqual({
      seq: result!.seq,
      kind: "system",
      subkind: "subtable_result",
      body: "go with a's view",
      data: { table: "t-child", reason: "decision", decision: { seq: 5, seat: "b", refs: ["entry:3"] } },
    });
  });

  it("still records a child's result while the parent is paused", async () => {
    const root = await parentTable();
    const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
    root.l.append(
      controlDraft(root.state, { owner: "tao", action: "pause", via: "telegram", nonce: "pause-nonce-0123456789" }),
    );
    await child.say("a");
    await child.say("b");
    expect((await root.report(child)).map(kindOf)).toEqual(["subtable_result"]);
  });

  describe("when task work goes on in the child after its close", () => {
    /** A child closed by b's decision with an effect on jenny's taskboard, then jenny's approval after the close. */
    async function decidedWithWorkAfter() {
      const root = await parentTable();
      const child = await root.openChild("a", childConfig(root, "t-child", ["a", "b"]));
      await child.say("a", "a's view");
      const [decision] = await child.write("b", {
        kind: "decision",
        body: "put it on the board",
        effects: [CARD_EFFECT],
      });
      const closed = child.state.closed!;
      await approve(child, decision!.seq, "jenny");
      expect(child.l.entries.length).toBeGreaterThan(closed.seq);
      return { root, child, closed };
    }

    it("reports the close entry's seq and link, not the newest entry's", async () => {
      const { root, child, closed } = await decidedWithWorkAfter();
      const [result] = await root.report(child);
      expect(result).toMatchObject({
        data: { seq: closed.seq, link: child.l.entries[closed.seq - 1]!.link, reason: "decision" },
      });
    });

    it("matches the child's whole ledger, task work after the close included", async () => {
      const { root, child } = await decidedWithWorkAfter();
      const [result] = await root.report(child);
      expect(checkResultAgainstChild(result!, child.l.entries)).toBeNull();
      expect(checkResultAgainstChild(result!, child.l.entries.slice(0, -2))).toBeNull();
    });

    it("refuses to match a child ledger that ends before the reported close", async () => {
      const { root, child, closed } = await decidedWithWorkAfter();
      const [result] = await root.report(child);
      expect(checkResultAgainstChild(result!, child.l.entries.slice(0, closed.seq - 1))).toMatch(/does not reach/);
    });
  });

  describe("when the parent refuses a result", () => {
    async function resultDraft(child: TestTable, signer = k.relay) {
      const statement = resultStatement(child.state, { linkAt: (seq) => child.l.entries[seq - 1]?.link });
      return subtableResultDraft(
        { statement, sig: await signStatement(signer, "result", statement) },
        signer.publicKeyText,
      );
    }

    it("refuses a second result for the same child with E_NOT_ALLOWED", async () => {
      const { root, child } = await decided();
      await root.report(child);
      const again = await resultDraft(child);
      expect((await refusal(() => admit(root.state, again, root.l.now))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a result for a table it never opened with E_NOT_ALLOWED", async () => {
      const { child } = await decided();
      const stranger = await TestTable.open(
        broadcastConfig(k, { id: "t-root", termination: { any: [{ max_entries: 9 }, "rounds_exhausted"] } }),
        ["a", "b", "c"],
        k,
      );
      const draft = await resultDraft(child);
      expect((await refusal(() => admit(stranger.state, draft, stranger.l.now))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a result signed by a key other than the table's relay key with E_BAD_SIGNATURE", async () => {
      const { root, child } = await decided();
      const draft = await resultDraft(child, k.judge);
      expect((await refusal(() => admit(root.state, draft, root.l.now))).code).toBe("E_BAD_SIGNATURE");
    });

    it("refutes a parent ledger whose result signature was altered", async () => {
      const { root, child } = await decided();
      await root.report(child);
      const entries = copy(root.l.entries);
      const result = entries.at(-1) as Extract<Entry, { subkind: "subtable_result" }>;
      result.data.decision!.body = "forged";
      const report = await verifyExport(
        exportText({ table: "t-root", relay: k.relay.publicKeyText }, rechain(entries), []),
        relayPinned(),
      );
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: result.seq, reason: "the result signature does not verify" },
      });
    });
  });
});

describe("nested sub-tables", () => {
  it("nest three levels deep, each result reaching its parent and every ledger verifying CLEAN", async () => {
    const root = await parentTable();
    const child = await root.openChild(
      "c",
      childConfig(root, "t-child", ["a", "b", "c"], {
        topology: { kind: "hub_spoke", hub: "c", spokes: ["a", "b"], rounds: 2 },
      }),
    );
    const grandchild = await child.openChild("a", {
      ...childConfig(child, "t-grandchild", ["a", "b"], { topology: { kind: "pipeline", stages: ["a", "b"] } }),
    });
    expect(grandchild.l.entries[0]).toMatchObject({ data: { parent: { table: "t-child", opener: "a" } } });
    // The carried joins are the owners' original ones, signed for the root table.
    const carried = grandchild.l.entries[0]!;
    expect(
      carried.kind === "system" &&
        carried.subkind === "table_opened" &&
        carried.data.parent!.joins.map((j) => j.join.table),
    ).toEqual(["t-root", "t-root"]);

    await grandchild.write("a", { kind: "say", body: "draft", to: ["b"] });
    await grandchild.write("b", { kind: "decision", body: "grandchild: ship" });
    expect(grandchild.state.closed?.reason).toBe("decision");
    const [toChild] = await child.report(grandchild);

    await child.write("c", { kind: "say", body: "a?", to: ["a"] });
    await child.write("a", { kind: "say", body: "see the grandchild", to: ["c"] });
    await child.write("c", { kind: "decision", body: "child: ship", refs: [`entry:${toChild!.seq}`] });
    const [toRoot] = await root.report(child);

    expect(toChild).toMatchObject({ data: { table: "t-grandchild", decision: { body: "grandchild: ship" } } });
    expect(toRoot).toMatchObject({
      data: { table: "t-child", decision: { body: "child: ship", refs: [`entry:${toChild!.seq}`] } },
    });
    expect(checkResultAgainstChild(toChild!, grandchild.l.entries)).toBeNull();
    expect(checkResultAgainstChild(toRoot!, child.l.entries)).toBeNull();
    for (const t of [root, child, grandchild]) {
      expect(await verifyExport(await t.exportText(), relayPinned()), t.config.id).toMatchObject({ verdict: "CLEAN" });
    }
    expect(canonicalize(root.state.subtables)).toBe(
      canonicalize({ "t-child": { opened: root.state.subtables["t-child"]!.opened, result: toRoot!.seq } }),
    );
  });
});

describe("when a seat writes owner rules into a sub-table's config", () => {
  it("ignores auto_approve and chat_approve there: only an owner's own signature endorses rules, and a seat key signed the child", async () => {
    const parent = await parentTable();
    const owners = {
      ...parent.config.owners,
      jenny: {
        ...parent.config.owners.jenny!,
        auto_approve: [{ resource: "taskboard", action: "*" }],
        chat_approve: [{ resource: "taskboard", action: "*" }],
        approvals: "async" as const,
      },
    };
    const child = await parent.openChild(
      "b",
      childConfig(parent, "t-rules", ["a", "b"], { owners, termination: { any: ["rounds_exhausted"] } }),
    );
    expect(child.state.endorsed).toEqual([]);
    const [proposal] = await child.write("a", {
      kind: "proposal",
      body: "reorder",
      effects: [{ owner: "jenny", resource: "taskboard", action: "reorder", args: {} }],
    });
    expect(child.state.tasks[`${proposal!.seq}.jenny`]).toMatchObject({ state: "awaiting_approval" });
  });
});
