import { SELF, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  approvalStatementFor,
  canonicalize,
  signHttpAuth,
  verifyExport,
  type Entry,
  type Principal,
  type Signer,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { bindVia, drain, requests } from "../support/chat-driver.js";
import { approveHttp, CARD_EFFECT, gatewayConfig } from "../support/gateway.js";
import { RelayHttp } from "../support/relay-http.js";
import { cast, keyOf, nonceOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

// Long enough that no real alarm fires while the suite runs; tests move the table's clock instead.
const HEARTBEAT = 3_600_000;

/** A gateway room `id` (jenny answers async, with key `jenny`) with x, y and c seated and jenny's task of one proposal approved. */
async function approvedTask(
  k: Cast,
  id: string,
  jenny: Signer = k.jenny,
): Promise<{ task: string; stub: DurableObjectStub<TableDO> }> {
  const config = gatewayConfig(k, { id, watchdog: { heartbeat_ms: HEARTBEAT } });
  config.owners.jenny = { ...config.owners.jenny!, public_key: jenny.publicKeyText, approvals: "async" };
  expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
  for (const [seat, owner, key] of [
    ["x", "tao", k.tao],
    ["y", "jenny", jenny],
    ["c", "ops", k.ops],
  ] as const) {
    expect((await relay.join(id, key, owner, seat, await keyOf(`seat:${seat}`))).status).toBe(201);
  }
  const proposed = await relay.say(id, await keyOf("seat:x"), {
    seat: "x",
    kind: "proposal",
    body: "card",
    effects: [CARD_EFFECT],
  });
  const seq = proposed.body.seq as number;
  const page = await relay.read(id, `/tables/${id}/entries?from=${seq}&to=${seq}`, jenny, { owner: "jenny" });
  const statement = approvalStatementFor(page.body.items[0] as Entry, "jenny", {
    verdict: "approve",
    nonce: nonceOf(`alarm:${id}`),
  });
  expect((await approveHttp(relay, "jenny", jenny, statement)).status).toBe(201);
  return { task: `${seq}.jenny`, stub: env.TABLES.getByName(id) };
}

/** Moves the table's clock `ms` ahead (the instance keeps it until evicted). */
const advance = (stub: DurableObjectStub<TableDO>, ms: number) =>
  runInDurableObject(stub, (instance: TableDO) => {
    instance.table.now = () => Date.now() + ms;
  });

/** A signed read at the table's moved clock (reads are only valid within minutes of the relay's time). */
async function readAhead(id: string, path: string, signer: Signer, as: Principal, ms: number) {
  const authorization = await signHttpAuth(signer, { table: id, as, method: "GET", path, now: Date.now() + ms });
  return relay.request("GET", path, undefined, { authorization });
}

const AHEAD = HEARTBEAT + 60_000;

const headSeq = async (id: string) => (await relay.request("GET", `/tables/${id}/head`)).body.seq as number;

describe("the watchdog alarm", () => {
  it("is set for the approved task's deadline and marks it stalled when it fires; a second run appends nothing", async () => {
    const k = await cast("gateway-alarm");
    const id = "gw-alarm";
    const { task, stub } = await approvedTask(k, id);
    const [alarm, since] = await runInDurableObject(stub, async (instance: TableDO, state) => [
      await state.storage.getAlarm(),
      instance.table.state!.tasks[task]!.since,
    ]);
    expect(alarm).toBe(since + HEARTBEAT);

    // Firing before the deadline (as a retried or early alarm might) stalls nothing, and re-arms the alarm.
    const before = await headSeq(id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await headSeq(id)).toBe(before);
    expect(await runInDurableObject(stub, (_: TableDO, state) => state.storage.getAlarm())).toBe(since + HEARTBEAT);

    await advance(stub, AHEAD);
    await runInDurableObject(stub, (instance: TableDO) => instance.alarm());
    const after = await headSeq(id);
    expect(after).toBe(before + 1);
    const page = await readAhead(id, `/tables/${id}/entries?from=${after}&to=${after}`, k.ops, { owner: "ops" }, AHEAD);
    expect(page.body.items[0]).toMatchObject({
      kind: "system",
      subkind: "task_state",
      author: null,
      data: { task, state: "stalled", reason: "watchdog", cause: null },
    });

    // At least once: the same alarm delivered again finds nothing due; nothing is scheduled any more.
    await runInDurableObject(stub, (instance: TableDO) => instance.alarm());
    expect(await headSeq(id)).toBe(after);
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    const exported = await readAhead(id, `/tables/${id}/export`, k.ops, { owner: "ops" }, AHEAD);
    const head = await relay.request("GET", `/tables/${id}/head`);
    expect((await verifyExport(exported.body, { relayKey: head.body.relay })).verdict).toBe("CLEAN");
  });

  it("fires through the runtime's alarm runner once the deadline passed", async () => {
    const k = await cast("gateway-alarm");
    const id = "gw-alarm-runner";
    const { task, stub } = await approvedTask(k, id);
    await advance(stub, AHEAD);
    const before = await headSeq(id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await headSeq(id)).toBe(before + 1);
    const tasks = await readAhead(id, `/tables/${id}/tasks`, k.jenny, { owner: "jenny" }, AHEAD);
    expect(tasks.body.items).toEqual([expect.objectContaining({ id: task, state: "stalled" })]);
  });
});

describe("the watchdog's stall in chat", () => {
  it("tells the task's owner on their bound channel, in the language the bind code carried, once the alarm stalls the task", async () => {
    const k = await cast("gateway-alarm");
    const id = "gw-alarm-notice";
    const jenny = await keyOf(`owner:${id}:jenny`);
    await bindVia("line", jenny, "U8611", "U8611", "ja");
    const { task, stub } = await approvedTask(k, id, jenny);
    await advance(stub, AHEAD);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await runInDurableObject(stub, (t: TableDO) => t.table.noticesSettled());
    await drain(jenny.publicKeyText);
    const pushes = (await requests('"to":"U8611"')).map((r) => JSON.stringify(r.body));
    expect(pushes.filter((text) => text.includes("タスクが停滞しています") && text.includes(task))).toHaveLength(1);
  });
});

describe("eviction with open tasks", () => {
  it("rebuilds the identical state, tasks and requests included, and keeps the alarm", async () => {
    const k = await cast("gateway-alarm");
    const id = "gw-evict";
    const { task, stub } = await approvedTask(k, id);
    const y = await keyOf("seat:y");
    expect((await relay.say(id, y, { seat: "y", kind: "progress", task, body: "working" })).status).toBe(201);
    expect(
      (
        await relay.say(id, y, {
          seat: "y",
          kind: "request",
          request_id: "plan-1",
          type: "plan_approval",
          to: ["c"],
          body: "ok?",
        })
      ).status,
    ).toBe(201);
    const before = await runInDurableObject(
      stub,
      async (instance: TableDO, state) => [canonicalize(instance.table.state), await state.storage.getAlarm()] as const,
    );
    expect(JSON.parse(before[0]).tasks[task]).toMatchObject({ state: "running", executor: "y" });

    await evictDurableObject(stub);
    const after = await runInDurableObject(
      stub,
      async (instance: TableDO, state) => [canonicalize(instance.table.state), await state.storage.getAlarm()] as const,
    );
    expect(after).toEqual(before);

    const receipt = await relay.say(id, y, { seat: "y", kind: "receipt", task, body: "done" });
    expect(receipt.status).toBe(201);
    expect(await runInDurableObject(stub, (_: TableDO, state) => state.storage.getAlarm())).toBeNull();
  });
});
