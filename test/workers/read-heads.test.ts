/**
 * Every read a client acts on is checkable (docs/SPEC.md §7): the projection and the task list
 * carry the relay-signed head they were computed at, for every reader, also after an eviction.
 */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  ProjectionResponseSchema,
  TasksResponseSchema,
  verifyHeadSignature,
  type SignedHead,
} from "../../src/protocol/index.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

async function expectCurrentHead(id: string, head: SignedHead): Promise<void> {
  expect(await verifyHeadSignature(head)).toBe(true);
  expect(head).toEqual((await relay.request("GET", `/tables/${id}/head`)).body);
}

describe("reads carry the head they were computed at", () => {
  it("gives a seat's projection and task list the table's current signed head, before and after an eviction", async () => {
    const id = "read-heads";
    const k = await seatedDebate(relay, id, {
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 100 }] },
    });
    expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "asking 3,600" })).status).toBe(201);
    for (let round = 0; round < 2; round += 1) {
      const projection = await relay.read(id, `/tables/${id}/projection?after=0`, k.botJenny, { seat: "bot-jenny" });
      expect(projection.status).toBe(200);
      const parsed = ProjectionResponseSchema.parse(projection.body);
      expect(parsed.cursor).toBe(parsed.head.seq);
      await expectCurrentHead(id, parsed.head);
      const tasks = await relay.read(id, `/tables/${id}/tasks?after=0`, k.ops, { owner: "ops" });
      expect(tasks.status).toBe(200);
      await expectCurrentHead(id, TasksResponseSchema.parse(tasks.body).head);
      await evictDurableObject(env.TABLES.getByName(id));
    }
  });
});
