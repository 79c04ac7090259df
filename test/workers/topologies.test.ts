import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalize, verifyExport, type Signer, type TableConfig } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { cast, castOwners, keyOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);

let k: Cast;
const keys: Record<string, Signer> = {};
const OWNER: Record<string, "tao" | "jenny" | "ops"> = {
  a: "tao",
  b: "jenny",
  c: "ops",
  lead: "ops",
  m1: "tao",
  m2: "jenny",
};
beforeAll(async () => {
  k = await cast();
  for (const seat of Object.keys(OWNER)) keys[seat] = await keyOf(`seat:${seat}`);
});

/** Creates table `id` with the given seats, topology and termination, and seats everyone. */
async function seated(
  id: string,
  seats: string[],
  topology: TableConfig["topology"],
  termination: TableConfig["termination"],
): Promise<void> {
  const owner = (name: string) => (name === "tao" ? k.tao : name === "jenny" ? k.jenny : k.ops);
  const config: TableConfig = {
    id,
    topic: "topologies over HTTP",
    owners: castOwners(k),
    seats: Object.fromEntries(seats.map((s) => [s, { owner: OWNER[s]! }])),
    topology,
    termination,
  };
  expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
  for (const seat of seats)
    expect((await relay.join(id, owner(OWNER[seat]!), OWNER[seat]!, seat, keys[seat]!)).status).toBe(201);
}

const write = (table: string, seat: string, input: Record<string, unknown>) =>
  relay.say(table, keys[seat]!, { seat, ...input } as never);

describe("topologies over HTTP", () => {
  it("runs a pipeline to its end, each output addressed to the next stage, and verifies CLEAN", async () => {
    const id = "http-pipeline";
    await seated(id, ["a", "b", "c"], { kind: "pipeline", stages: ["a", "b", "c"] }, { any: ["rounds_exhausted"] });
    expect(await headUnmoved(relay, id, () => write(id, "a", { kind: "say", body: "no address" }))).toMatchObject({
      status: 409,
      body: { error: { code: "E_NOT_ALLOWED", details: { to: ["b"] } } },
    });
    expect((await write(id, "a", { kind: "say", body: "draft", to: ["b"] })).status).toBe(201);
    expect((await write(id, "b", { kind: "say", body: "reviewed", to: ["c"] })).status).toBe(201);
    expect((await write(id, "c", { kind: "say", body: "final" })).status).toBe(201);
    expect(await write(id, "a", { kind: "say", body: "late", to: ["b"] })).toMatchObject({
      status: 409,
      body: { error: { code: "E_CLOSED" } },
    });
    const text = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    expect(
      await verifyExport(text, { relayKey: (await relay.request("GET", `/tables/${id}/head`)).body.relay }),
    ).toMatchObject({ verdict: "CLEAN" });
  });

  it("gives a hub_spoke floor only to the named spoke", async () => {
    const id = "http-hub";
    await seated(id, ["c", "a", "b"], { kind: "hub_spoke", hub: "c", spokes: ["a", "b"] }, { any: ["decision"] });
    expect((await write(id, "c", { kind: "say", body: "a, please", to: ["a"] })).status).toBe(201);
    expect(
      await headUnmoved(relay, id, () => write(id, "b", { kind: "say", body: "me too", to: ["c"] })),
    ).toMatchObject({ status: 409, body: { error: { code: "E_NOT_FLOOR", details: { holder: "a" } } } });
    expect(await headUnmoved(relay, id, () => write(id, "a", { kind: "say", body: "hi b", to: ["b"] }))).toMatchObject({
      status: 409,
      body: { error: { code: "E_NOT_ALLOWED" } },
    });
    expect((await write(id, "a", { kind: "say", body: "done", to: ["c"] })).status).toBe(201);
    expect((await write(id, "c", { kind: "decision", body: "settled" })).status).toBe(201);
  });

  it("refuses speech across delegation lines without moving the head", async () => {
    const id = "http-delegation";
    await seated(
      id,
      ["lead", "m1", "m2"],
      { kind: "delegation", lead: "lead", reports: { lead: ["m1", "m2"] } },
      { any: ["decision"] },
    );
    expect((await write(id, "lead", { kind: "say", body: "m1, take it", to: ["m1"] })).status).toBe(201);
    expect(await headUnmoved(relay, id, () => write(id, "m1", { kind: "say", body: "m2?", to: ["m2"] }))).toMatchObject(
      { status: 409, body: { error: { code: "E_NOT_ALLOWED", details: { line: ["lead"] } } } },
    );
    expect((await write(id, "m1", { kind: "say", body: "done", to: ["lead"] })).status).toBe(201);
  });

  it("closes a table by quorum, and rebuilds open proposals identically after eviction", async () => {
    const id = "http-quorum";
    await seated(
      id,
      ["a", "b", "c"],
      { kind: "broadcast", order: ["a", "b", "c"] },
      { any: [{ quorum: { n: 2, of: "owners" } }] },
    );
    const proposal = await write(id, "a", { kind: "proposal", body: "freeze on Friday" });
    expect((await write(id, "b", { kind: "vote", re: proposal.body.seq, choice: "yes" })).status).toBe(201);
    const before = await runInDurableObject(stub(id), (t: TableDO) => canonicalize(t.table.state));
    await evictDurableObject(stub(id));
    expect(await runInDurableObject(stub(id), (t: TableDO) => canonicalize(t.table.state))).toBe(before);
    const closing = await write(id, "c", { kind: "vote", re: proposal.body.seq, choice: "yes" });
    expect(closing.status).toBe(201);
    const page = await relay.read(id, `/tables/${id}/entries?from=${closing.body.seq}`, k.ops, { owner: "ops" });
    expect(page.body.items.map((e: { kind: string; subkind?: string }) => e.subkind ?? e.kind)).toEqual([
      "vote",
      "decision",
      "table_closed",
    ]);
    const projection = await relay.read(id, `/tables/${id}/projection`, keys.a!, { seat: "a" });
    expect(projection.body).toMatchObject({
      closed: "quorum",
      prefix: { decisions: [{ seat: "a", body: "freeze on Friday", by: "quorum" }] },
    });
  });
});
