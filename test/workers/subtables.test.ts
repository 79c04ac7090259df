import { SELF, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  approvalStatementFor,
  canonicalize,
  checkResultAgainstChild,
  ed25519,
  fromBase64url,
  parseExport,
  signStatement,
  verifyExport,
  type Entry,
  type ErrorCode,
  type HiddenEntry,
  type Signer,
  type TableConfig,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { deliveryOf } from "../../durable-objects/table/writing/results.js";
import { readExport } from "../../durable-objects/table/reading/reads.js";
import { headUnmoved, RelayHttp, tableHead, type Reply } from "../support/relay-http.js";
import { refused } from "../support/refused.js";
import { cast, castOwners, keyOf, type Cast } from "../support/table-fixture.js";
import { approveHttp, CARD_EFFECT } from "../support/gateway.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);

let k: Cast;
let relayKey: string;
const seatKeys: Record<string, Signer> = {};
beforeAll(async () => {
  k = await cast();
  relayKey = (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key;
  for (const seat of ["a", "b", "c"]) seatKeys[seat] = await keyOf(`seat:${seat}`);
});

const OWNER_OF = { a: "tao", b: "jenny", c: "ops" } as const;
const ownerKey = (owner: string) => (owner === "tao" ? k.tao : owner === "jenny" ? k.jenny : k.ops);

/** Creates root table `id` (an endless broadcast of a, b, c) and seats all three. */
async function seatedRoot(id: string): Promise<void> {
  const config: TableConfig = {
    id,
    topic: "The quarterly plan",
    owners: castOwners(k),
    seats: { a: { owner: "tao" }, b: { owner: "jenny" }, c: { owner: "ops" } },
    topology: { kind: "broadcast", order: ["a", "b", "c"] },
    termination: { any: ["decision", { max_entries: 100 }] },
  };
  expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
  for (const seat of ["a", "b", "c"] as const) {
    expect((await relay.join(id, ownerKey(OWNER_OF[seat]), OWNER_OF[seat], seat, seatKeys[seat]!)).status).toBe(201);
  }
}

/** A sub-table config of `parent` with `seats` and `topology`. */
function subConfig(
  id: string,
  parent: string,
  seats: (keyof typeof OWNER_OF)[],
  topology: TableConfig["topology"],
): TableConfig {
  return {
    id,
    topic: `part of ${parent}`,
    owners: castOwners(k),
    seats: Object.fromEntries(seats.map((s) => [s, { owner: OWNER_OF[s] }])),
    topology,
    termination: { any: ["decision", "rounds_exhausted"] },
    parent,
  };
}

const say = (table: string, seat: keyof typeof OWNER_OF, input: Record<string, unknown>) =>
  relay.say(table, seatKeys[seat]!, { seat, ...input } as never);
const exportOf = async (table: string) =>
  (await relay.read(table, `/tables/${table}/export`, k.ops, { owner: "ops" })).body as string;
const itemsOf = (text: string): (Entry | HiddenEntry)[] => {
  const parsed = parseExport(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return [...parsed.view.items];
};
const entriesOf = async (table: string) => itemsOf(await exportOf(table)) as Entry[];
const headOf = async (table: string) => (await relay.request("GET", `/tables/${table}/head`)).body;

/** Forgets a child's recorded delivery, as a crash before recording it would, and runs its alarm to deliver again. */
async function redeliver(child: string): Promise<void> {
  await runInDurableObject(stub(child), async (_: TableDO, state) => {
    state.storage.sql.exec("DELETE FROM meta WHERE key = 'subtable_result_delivery'");
    await state.storage.setAlarm(Date.now() + 60_000);
  });
  expect(await runDurableObjectAlarm(stub(child))).toBe(true);
}

describe("sub-tables over HTTP", () => {
  it("nest three levels: each close appends exactly one subtable_result to its parent, and every ledger verifies CLEAN", async () => {
    const [root, child, grand] = ["nest-root", "nest-child", "nest-grand"];
    await seatedRoot(root);
    const opened = await relay.openSubtable(
      root,
      seatKeys.c!,
      "c",
      subConfig(child, root, ["a", "b", "c"], { kind: "hub_spoke", hub: "c", spokes: ["a", "b"], rounds: 2 }),
    );
    expect(opened).toMatchObject({ status: 201, body: { table: child, head: { seq: 2 } } });
    const openedG = await relay.openSubtable(
      child,
      seatKeys.a!,
      "a",
      subConfig(grand, child, ["a", "b"], { kind: "pipeline", stages: ["a", "b"] }),
    );
    expect(openedG).toMatchObject({ status: 201, body: { table: grand } });

    expect((await say(grand, "a", { kind: "say", body: "draft plan", to: ["b"] })).status).toBe(201);
    expect((await say(grand, "b", { kind: "decision", body: "grand: plan A" })).status).toBe(201);
    // The close was delivered before the closing write returned.
    const childEntries = await entriesOf(child);
    const toChild = childEntries.at(-1)!;
    expect(toChild).toMatchObject({
      kind: "system",
      subkind: "subtable_result",
      author: { key: relayKey },
      data: { table: grand, reason: "decision", decision: { body: "grand: plan A" } },
    });

    expect((await say(child, "c", { kind: "say", body: "a?", to: ["a"] })).status).toBe(201);
    expect((await say(child, "a", { kind: "say", body: `see entry:${toChild.seq}`, to: ["c"] })).status).toBe(201);
    expect(
      (await say(child, "c", { kind: "decision", body: "child: plan A", refs: [`entry:${toChild.seq}`] })).status,
    ).toBe(201);
    const rootEntries = await entriesOf(root);
    const results = rootEntries.filter((e) => e.kind === "system" && e.subkind === "subtable_result");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      data: { table: child, decision: { body: "child: plan A", refs: [`entry:${toChild.seq}`] } },
    });
    expect(rootEntries.filter((e) => e.kind === "system" && e.subkind === "subtable_opened")).toHaveLength(1);

    expect(checkResultAgainstChild(toChild, await entriesOf(grand))).toBeNull();
    expect(checkResultAgainstChild(results[0]!, await entriesOf(child))).toBeNull();
    for (const table of [root, child, grand]) {
      expect(await verifyExport(await exportOf(table), { relayKey }), table).toMatchObject({ verdict: "CLEAN" });
    }
  });

  it("answers a retried opening with the same table and appends nothing anywhere", async () => {
    const [root, child] = ["retry-root", "retry-child"];
    await seatedRoot(root);
    const config = subConfig(child, root, ["a", "b"], { kind: "broadcast", order: ["a", "b"], rounds: 1 });
    const first = await relay.openSubtable(root, seatKeys.a!, "a", config);
    const again = await headUnmoved(relay, root, () => relay.openSubtable(root, seatKeys.a!, "a", config));
    expect(again).toMatchObject({ status: 201, body: { table: child, head: { seq: first.body.head.seq } } });
  });

  it("delivers a result at least once but records it once: a re-run alarm finds the parent's first entry", async () => {
    const [root, child] = ["once-root", "once-child"];
    await seatedRoot(root);
    await relay.openSubtable(
      root,
      seatKeys.b!,
      "b",
      subConfig(child, root, ["a", "b"], { kind: "broadcast", order: ["a", "b"], rounds: 1 }),
    );
    await say(child, "a", { kind: "say", body: "a" });
    await say(child, "b", { kind: "say", body: "b" });
    const rootHead = await headOf(root);
    const delivered = await runInDurableObject(stub(child), (_: TableDO, state) => deliveryOf(state.storage));
    expect(delivered).toEqual({ delivered: rootHead.seq });

    await redeliver(child);
    expect(await headOf(root)).toEqual(rootHead);
    expect(await runInDurableObject(stub(child), (_: TableDO, state) => deliveryOf(state.storage))).toEqual(delivered);
    expect(await runInDurableObject(stub(child), (_: TableDO, state) => state.storage.getAlarm())).toBeNull();
  });

  it("reports the child's close, not task work after it: a retry after an approval sends the same result, which matches the child's ledger", async () => {
    const [root, child] = ["work-root", "work-child"];
    await seatedRoot(root);
    const config = subConfig(child, root, ["a", "b"], { kind: "broadcast", order: ["a", "b"], rounds: 1 });
    config.owners.jenny = { ...config.owners.jenny!, approvals: "async" };
    await relay.openSubtable(root, seatKeys.a!, "a", config);
    await say(child, "a", { kind: "say", body: "a" });
    const decided = await say(child, "b", { kind: "decision", body: "put it on the board", effects: [CARD_EFFECT] });
    expect(decided.status).toBe(201);
    const rootHead = await headOf(root);
    const delivered = await runInDurableObject(stub(child), (_: TableDO, state) => deliveryOf(state.storage));
    expect(delivered).toEqual({ delivered: rootHead.seq });

    // Task work goes on after the close (§5.6); then the delivery is forgotten and tried again.
    const decision = (await entriesOf(child)).find((e) => e.kind === "decision")!;
    const approval = await approveHttp(
      relay,
      "jenny",
      k.jenny,
      approvalStatementFor(decision, "jenny", { verdict: "approve", nonce: "work-approval-nonce-0001" }),
    );
    expect(approval.status).toBe(201);
    await redeliver(child);
    expect(await headOf(root)).toEqual(rootHead);
    expect(await runInDurableObject(stub(child), (_: TableDO, state) => deliveryOf(state.storage))).toEqual(delivered);
    const result = (await entriesOf(root)).find((e) => e.kind === "system" && e.subkind === "subtable_result")!;
    expect(checkResultAgainstChild(result, await entriesOf(child))).toBeNull();
  });

  it("runs a closed child's watchdog on the alarm it shared with the delivery: the stall lands in the child only, which still matches its result and verifies CLEAN", async () => {
    const [root, child] = ["watch-root", "watch-child"];
    const heartbeat = 3_600_000;
    await seatedRoot(root);
    const config = {
      ...subConfig(child, root, ["a", "b"], { kind: "broadcast", order: ["a", "b"], rounds: 1 }),
      watchdog: { heartbeat_ms: heartbeat },
    };
    config.owners.jenny = { ...config.owners.jenny!, approvals: "async" };
    await relay.openSubtable(root, seatKeys.a!, "a", config);
    await say(child, "a", { kind: "say", body: "a" });
    expect(
      (await say(child, "b", { kind: "decision", body: "put it on the board", effects: [CARD_EFFECT] })).status,
    ).toBe(201);
    const decision = (await entriesOf(child)).find((e) => e.kind === "decision")!;
    expect(
      (
        await approveHttp(
          relay,
          "jenny",
          k.jenny,
          approvalStatementFor(decision, "jenny", { verdict: "approve", nonce: "watch-approval-nonce-001" }),
        )
      ).status,
    ).toBe(201);
    const rootHead = await headOf(root);
    const task = `${decision.seq}.jenny`;
    // Delivered at the close, so the one alarm now waits only for the watchdog; move the child's clock past it.
    await runInDurableObject(stub(child), async (instance: TableDO, state) => {
      expect(deliveryOf(state.storage)).toMatchObject({ delivered: expect.any(Number) });
      expect(await state.storage.getAlarm()).toBe(instance.table.state!.tasks[task]!.since + heartbeat);
      instance.table.now = () => Date.now() + heartbeat + 60_000;
    });
    expect(await runDurableObjectAlarm(stub(child))).toBe(true);
    const { text, state } = await runInDurableObject(stub(child), async (instance: TableDO) => ({
      text: readExport(
        instance.table.state!,
        instance.table.ledger,
        { owner: "ops" },
        await instance.table.currentHead(),
      ),
      state: instance.table.state!.tasks[task]!.state,
    }));
    expect(state).toBe("stalled");
    expect(await headOf(root)).toEqual(rootHead);
    const result = (await entriesOf(root)).find((e) => e.kind === "system" && e.subkind === "subtable_result")!;
    expect(checkResultAgainstChild(result, itemsOf(text))).toBeNull();
    expect(await verifyExport(text, { relayKey })).toMatchObject({ verdict: "CLEAN" });
  });

  it("records a result the closed parent refuses as refused for good, without retrying", async () => {
    const [root, child] = ["closed-root", "closed-child"];
    await seatedRoot(root);
    await relay.openSubtable(
      root,
      seatKeys.a!,
      "a",
      subConfig(child, root, ["a", "b"], { kind: "broadcast", order: ["a", "b"], rounds: 1 }),
    );
    expect((await say(root, "a", { kind: "decision", body: "the root is done" })).status).toBe(201);
    const rootHead = await headOf(root);
    await say(child, "a", { kind: "say", body: "a" });
    expect((await say(child, "b", { kind: "say", body: "b" })).status).toBe(201);
    expect(await headOf(root)).toEqual(rootHead);
    expect(await runInDurableObject(stub(child), (_: TableDO, state) => deliveryOf(state.storage))).toEqual({
      refused: "E_CLOSED",
    });
    // The close's owner notifications are handed over after the write; until then their retry keeps the alarm set.
    await runInDurableObject(stub(child), (instance: TableDO) => instance.table.noticesSettled());
    expect(await runInDurableObject(stub(child), (_: TableDO, state) => state.storage.getAlarm())).toBeNull();
  });

  it("rebuilds identical parent and child states after eviction", async () => {
    const [root, child] = ["evict-root", "evict-child"];
    await seatedRoot(root);
    await relay.openSubtable(
      root,
      seatKeys.c!,
      "c",
      subConfig(child, root, ["b", "c"], { kind: "broadcast", order: ["b", "c"], rounds: 1 }),
    );
    await say(child, "b", { kind: "say", body: "b" });
    await say(child, "c", { kind: "say", body: "c" });
    for (const table of [root, child]) {
      const before = await runInDurableObject(stub(table), (instance: TableDO) => canonicalize(instance.table.state));
      await evictDurableObject(stub(table));
      expect(await runInDurableObject(stub(table), (instance: TableDO) => canonicalize(instance.table.state))).toBe(
        before,
      );
    }
    const state = await runInDurableObject(stub(root), (instance: TableDO) => instance.table.state!.subtables[child]);
    expect(state).toMatchObject({ result: expect.any(Number) });
  });

  describe("when an opening is refused", () => {
    const root = "refuse-root";
    beforeAll(() => seatedRoot(root));

    /** Sends `attempt`, expects `code` with the parent unmoved, and checks that the child does not exist. */
    async function refusedOpening(code: ErrorCode, child: string, attempt: () => Promise<Reply>): Promise<void> {
      await refused(code, attempt, { unmoved: tableHead(relay, root) });
      expect((await relay.request("GET", `/tables/${child}/head`)).body).toMatchObject({
        error: { code: "E_TABLE_NOT_FOUND" },
      });
    }
    const config = (child: string, seats: (keyof typeof OWNER_OF)[] = ["a", "b"]) =>
      subConfig(child, root, seats, { kind: "broadcast", order: seats, rounds: 1 });

    it("refuses an opening signed with another seat's key (E_BAD_SIGNATURE)", () =>
      refusedOpening("E_BAD_SIGNATURE", "refuse-sig", () =>
        relay.openSubtable(root, seatKeys.b!, "a", config("refuse-sig")),
      ));

    it("refuses a config naming another parent than the route (E_WRONG_TABLE)", () =>
      refusedOpening("E_WRONG_TABLE", "refuse-route", () =>
        relay.openSubtable(root, seatKeys.a!, "a", { ...config("refuse-route"), parent: "elsewhere" }),
      ));

    it("refuses a parent that does not exist (E_TABLE_NOT_FOUND)", () =>
      refusedOpening("E_TABLE_NOT_FOUND", "refuse-noparent", () =>
        relay.openSubtable("no-such-root", seatKeys.a!, "a", { ...config("refuse-noparent"), parent: "no-such-root" }),
      ));

    it("refuses a malformed parent id (E_TABLE_NOT_FOUND)", () =>
      refusedOpening("E_TABLE_NOT_FOUND", "refuse-badid", () =>
        relay.openSubtable("Bad Id", seatKeys.a!, "a", config("refuse-badid")),
      ));

    it("refuses a seat the parent does not have (E_UNKNOWN_SEAT)", async () => {
      const withGhost = config("refuse-ghost");
      withGhost.seats!.ghost = { owner: "tao" };
      await refusedOpening("E_UNKNOWN_SEAT", "refuse-ghost", () =>
        relay.openSubtable(root, seatKeys.a!, "a", withGhost),
      );
    });

    it("refuses a config without termination (E_NO_TERMINATION)", async () => {
      const { termination: _t, ...endless } = config("refuse-endless");
      await refusedOpening("E_NO_TERMINATION", "refuse-endless", () =>
        relay.openSubtable(root, seatKeys.a!, "a", endless as TableConfig),
      );
    });

    it("refuses an id an existing table holds (E_TABLE_EXISTS)", async () => {
      await refused("E_SCHEMA", () => relay.openSubtable(root, seatKeys.a!, "a", config(root)), {
        unmoved: tableHead(relay, root),
      });
      await seatedRoot("refuse-taken");
      await refused("E_TABLE_EXISTS", () => relay.openSubtable(root, seatKeys.a!, "a", config("refuse-taken")), {
        unmoved: tableHead(relay, root),
      });
    });
  });

  describe("when a result reaching the parent is not the relay's", () => {
    it("refuses a forged result and an unknown child without moving the parent", async () => {
      const root = "forged-root";
      await seatedRoot(root);
      const before = await headOf(root);
      const statement = {
        parent: root,
        table: "never-opened",
        seq: 3,
        link: "0".repeat(64),
        reason: "decision",
        decision: null,
      };
      const bogus = await stub(root).reportSubtable({ statement, sig: "A".repeat(85) + "A" });
      expect(bogus).toMatchObject({ ok: false, error: { code: "E_BAD_SIGNATURE" } });
      const forger = await keyOf("not-the-relay");
      const signed = await stub(root).reportSubtable({
        statement,
        sig: await signStatement(forger, "result", statement),
      });
      expect(signed).toMatchObject({ ok: false, error: { code: "E_BAD_SIGNATURE" } });
      // Even the relay's own signature does not make a table it never opened a sub-table.
      const relaySigner = await (await ed25519()).signer(fromBase64url(await env.RELAY.getByName("relay").seed()));
      const stray = await stub(root).reportSubtable({
        statement,
        sig: await signStatement(relaySigner, "result", statement),
      });
      expect(stray).toMatchObject({ ok: false, error: { code: "E_NOT_ALLOWED" } });
      const malformed = await stub(root).reportSubtable({ statement: { ...statement, extra: 1 }, sig: "x" });
      expect(malformed).toMatchObject({ ok: false, error: { code: "E_SCHEMA" } });
      expect(await headOf(root)).toEqual(before);
    });
  });
});
