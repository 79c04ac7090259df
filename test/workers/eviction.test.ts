import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

const stateOf = (stub: DurableObjectStub<TableDO>) =>
  runInDurableObject(stub, (instance: TableDO) => canonicalize(instance.table.state));

describe("eviction", () => {
  it("rebuilds the identical state from the ledger after the table is evicted", async () => {
    const id = "evict-identical";
    const k = await seatedDebate(relay, id, { floor: { max_chars: 40, max_bot_depth: 50 } });
    await relay.say(id, k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "pro: a long opening statement that will be cut",
    });
    await relay.say(id, k.judge, { seat: "judge", kind: "raise_hand", body: "" });
    await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" });
    const stub = env.TABLES.getByName(id);
    const before = await stateOf(stub);
    expect(JSON.parse(before).floor.holder).toBe("judge");

    await evictDurableObject(stub);
    const after = await stateOf(stub);
    expect(after).toBe(before);

    // And it keeps working from the rebuilt state: the judge holds the floor (raised hand).
    const said = await relay.say(id, k.judge, { seat: "judge", kind: "say", body: "a question" });
    expect(said.status).toBe(201);
    const head = await relay.request("GET", `/tables/${id}/head`);
    expect(head.body.seq).toBe(said.body.head.seq);
  });

  it("keeps the generated relay key across eviction of the key holder", async () => {
    const stub = env.RELAY.getByName("relay");
    const first = await stub.seed();
    await evictDurableObject(stub);
    expect(await stub.seed()).toBe(first);
  });
});
