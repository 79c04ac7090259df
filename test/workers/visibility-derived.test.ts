/**
 * Visibility of derived entries over the Worker and the Table DO (docs/SPEC.md §5.3, decision
 * 0192): the projection, entry pages, GET /tasks, WebSocket pushes and the export agree that a
 * judge who may not read a proposal's author sees nothing of it, of the task it opens, or of the
 * decision its votes reach, while its chain check stays complete.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize, verifyExport, type Entry, type HiddenEntry } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { CARD_EFFECT } from "../support/gateway.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { cast, debateConfig, keyOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

const BODY = "buy the board for the whole team";

describe("a judge who may not read the proposer", () => {
  it("gets the proposal, its task and the decision by quorum as leaf hashes on every read path", async () => {
    const id = "vis-derived";
    const keys = await cast();
    const base = debateConfig(keys);
    const k = await seatedDebate(relay, id, {
      owners: { ...base.owners, jenny: { public_key: keys.jenny.publicKeyText, approvals: "async" } },
      seats: { ...base.seats, h: { owner: "ops", human: true } },
      visibility: { judge: { seats: ["bot-tao", "bot-jenny"] } },
      termination: { any: ["decision", "rounds_exhausted", { quorum: { n: 2, of: "seats" } }] },
    });
    const h = await keyOf("seat:h");
    expect((await relay.join(id, k.ops, "ops", "h", h, { human: true })).status).toBe(201);
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "judge", k.judge);

    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "pro: ship it" });
    const proposal = await relay.say(id, h, {
      seat: "h",
      kind: "proposal",
      body: BODY,
      effects: [CARD_EFFECT],
    } as never);
    expect(proposal.status).toBe(201);
    expect(
      (await relay.say(id, k.botTao, { seat: "bot-tao", kind: "vote", re: proposal.body.seq, choice: "yes" } as never))
        .status,
    ).toBe(201);
    const closing = await relay.say(id, k.botJenny, {
      seat: "bot-jenny",
      kind: "vote",
      re: proposal.body.seq,
      choice: "yes",
    } as never);
    expect(closing.status).toBe(201);
    const head = closing.body.head.seq;

    const all = (await relay.read(id, `/tables/${id}/entries?from=1&to=${head}`, k.ops, { owner: "ops" })).body
      .items as Entry[];
    const kindOf = (e: Entry) => (e.kind === "system" ? e.subkind : e.kind);
    const derived = all.filter((e) => ["proposal", "task_opened", "decision"].includes(kindOf(e))).map((e) => e.seq);
    expect(derived).toHaveLength(3);

    const page = (await relay.read(id, `/tables/${id}/entries?from=1&to=${head}`, k.judge, { seat: "judge" })).body
      .items as (Entry | HiddenEntry)[];
    expect(page.map((i) => i.seq)).toEqual(all.map((e) => e.seq));
    for (const seq of derived) expect(page[seq - 1]).toEqual({ seq, leaf: all[seq - 1]!.leaf });
    expect(page[said.body.seq - 1]).toEqual(all[said.body.seq - 1]);

    await socket.until(head);
    const pushed = socket.frames.flatMap((f) => (f.type === "entries" ? f.items : []));
    expect(pushed.map((i) => i.seq)).toEqual(page.map((i) => i.seq));
    expect(pushed).toEqual(page);
    expect(JSON.stringify(pushed)).not.toContain(BODY);
    expect(JSON.stringify(pushed)).not.toContain("taskboard");
    socket.ws.close();

    const projection = (await relay.read(id, `/tables/${id}/projection`, k.judge, { seat: "judge" })).body;
    for (const seq of derived) expect(projection.tail.map((e: { seq: number }) => e.seq)).not.toContain(seq);
    expect(projection).toMatchObject({ closed: "decision", tasks: [], prefix: { decisions: [] } });
    const tasks = await relay.read(id, `/tables/${id}/tasks`, k.judge, { seat: "judge" });
    expect(tasks.body.items).toEqual([]);

    const text = (await relay.read(id, `/tables/${id}/export`, k.judge, { seat: "judge" })).body as string;
    expect(text).not.toContain(BODY);
    const report = await verifyExport(text, { relayKey: closing.body.head.relay });
    expect(report.verdict).toBe("INCONCLUSIVE");
    expect(report.coverage.by_content + report.coverage.by_hash).toBe(head);

    // The entries that opened tasks are folded state: eviction rebuilds them, and the judge's view with them.
    const stub = env.TABLES.getByName(id);
    const before = await runInDurableObject(stub, (t: TableDO) => canonicalize(t.table.state));
    expect(JSON.parse(before).origins).toEqual({ [String(proposal.body.seq)]: { seat: "h", kind: "proposal" } });
    await evictDurableObject(stub);
    expect(await runInDurableObject(stub, (t: TableDO) => canonicalize(t.table.state))).toBe(before);
    expect(
      (await relay.read(id, `/tables/${id}/entries?from=1&to=${head}`, k.judge, { seat: "judge" })).body.items,
    ).toEqual(page);
  });
});
