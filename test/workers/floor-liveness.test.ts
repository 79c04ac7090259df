/**
 * Liveness of the floor in the Durable Object (docs/SPEC.md §5.2, decision 0190): a hub_spoke whose
 * hub leaves closes with `no_speaker`, the closed state is rebuilt identically after eviction, and
 * the export replays CLEAN.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalize, verifyExport, type Signer, type TableConfig } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { cast, keyOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);
const stateOf = (id: string) => runInDurableObject(stub(id), (t: TableDO) => canonicalize(t.table.state));

let k: Cast;
const keys: Record<string, Signer> = {};
beforeAll(async () => {
  k = await cast();
  for (const seat of ["mod", "a", "b"]) keys[seat] = await keyOf(`seat:${seat}`);
});

const write = (table: string, seat: string, input: Record<string, unknown>) =>
  relay.say(table, keys[seat]!, { seat, ...input } as never);

describe("a hub_spoke whose hub left, over HTTP", () => {
  it("closes with no_speaker, rebuilds the closed state after eviction, and verifies CLEAN", async () => {
    const id = "liveness-hub-left";
    const config: TableConfig = {
      id,
      topic: "liveness",
      owners: { tao: { public_key: k.tao.publicKeyText }, ops: { public_key: k.ops.publicKeyText } },
      seats: { mod: { owner: "ops" }, a: { owner: "tao" }, b: { owner: "tao" } },
      topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b"], rounds: 3 },
      termination: { any: ["rounds_exhausted"] },
    };
    expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
    for (const seat of ["mod", "a", "b"]) {
      const owner = seat === "mod" ? "ops" : "tao";
      expect((await relay.join(id, owner === "ops" ? k.ops : k.tao, owner, seat, keys[seat]!)).status).toBe(201);
    }
    expect(
      (
        await write(id, "a", {
          kind: "request",
          request_id: "bye-mod",
          type: "shutdown",
          to: ["mod"],
          body: "stand down",
        })
      ).status,
    ).toBe(201);
    const left = await write(id, "mod", {
      kind: "response",
      request_id: "bye-mod",
      type: "shutdown",
      verdict: "approve",
    });
    expect(left.status).toBe(201);
    const page = await relay.read(id, `/tables/${id}/entries?from=${left.body.seq}`, k.ops, { owner: "ops" });
    expect(
      page.body.items.map((e: { kind: string; subkind?: string; data?: { reason?: string } }) => e.subkind ?? e.kind),
    ).toEqual(["response", "seat_left", "table_closed"]);
    expect(page.body.items.at(-1).data.reason).toBe("no_speaker");

    const before = await stateOf(id);
    expect(JSON.parse(before).closed.reason).toBe("no_speaker");
    await evictDurableObject(stub(id));
    expect(await stateOf(id)).toBe(before);

    expect(
      await headUnmoved(relay, id, () => write(id, "a", { kind: "say", body: "anyone?", to: ["mod"] })),
    ).toMatchObject({ status: 409, body: { error: { code: "E_CLOSED" } } });
    const text = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    const relayKey = (await relay.request("GET", `/tables/${id}/head`)).body.relay;
    expect(await verifyExport(text, { relayKey })).toMatchObject({
      verdict: "CLEAN",
      coverage: { policy_replay: "full" },
    });
  });
});
