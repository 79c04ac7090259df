import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  approvalStatementFor,
  signApproval,
  verifyExport,
  type Entry,
  type ServerFrame,
  type TaskState,
} from "../../src/protocol/index.js";
import { CARD_EFFECT, ownerSession } from "../support/gateway.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { cast, debateConfig, keyOf, nonceOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

/** Entries among a socket's frames, by seq. */
function entriesOf(frames: readonly ServerFrame[]): Map<number, Entry> {
  const out = new Map<number, Entry>();
  for (const f of frames)
    if (f.type === "entries") for (const item of f.items) if ("kind" in item) out.set(item.seq, item);
  return out;
}

describe("the #459/#461 flow over HTTP and an owner session", () => {
  it("runs judge decision -> task awaiting jenny -> jenny's key approves -> bot-jenny runs and reports -> checker verifies", async () => {
    const k = await cast();
    const checker = await keyOf("seat:checker");
    const id = "gateway-459";
    const config = debateConfig(k, { id, seats: { ...debateConfig(k).seats, checker: { owner: "ops" } } });
    expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
    for (const [owner, name, seat, key] of [
      [k.tao, "tao", "bot-tao", k.botTao],
      [k.jenny, "jenny", "bot-jenny", k.botJenny],
      [k.ops, "ops", "judge", k.judge],
      [k.ops, "ops", "checker", checker],
    ] as const) {
      expect((await relay.join(id, owner, name, seat, key)).status).toBe(201);
    }
    for (let r = 1; r <= 2; r++) {
      expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: `pro round ${r}` })).status).toBe(
        201,
      );
      expect((await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: `con round ${r}` })).status).toBe(
        201,
      );
    }
    const decision = {
      seat: "judge",
      kind: "decision" as const,
      body: "ship #459 first; jenny tracks it",
      effects: [CARD_EFFECT],
    };

    // Nobody can answer for jenny yet: refused at once, nothing appended.
    const lonely = await headUnmoved(relay, id, () =>
      relay.say(id, k.judge, { ...decision, nonce: nonceOf("decision-1") }),
    );
    expect(lonely).toMatchObject({
      status: 409,
      body: { error: { code: "E_NO_APPROVER", details: { owners: ["jenny"] } } },
    });

    // jenny opens an owner session; now the decision lands, opens her task and closes the table.
    const session = await ownerSession(fetcher, id, "jenny", k.jenny);
    const decided = await relay.say(id, k.judge, { ...decision, nonce: nonceOf("decision-2") });
    expect(decided.status).toBe(201);
    const seq = decided.body.seq as number;
    const task = `${seq}.jenny`;
    await session.until(decided.body.head.seq);
    const pushed = entriesOf(session.frames);
    expect(pushed.get(seq + 1)).toMatchObject({
      kind: "system",
      subkind: "task_opened",
      data: { task, owner: "jenny", effects: [CARD_EFFECT] },
    });
    expect(pushed.get(seq + 2)).toMatchObject({ kind: "system", subkind: "table_closed" });

    // jenny's machine signs what it read (the decision entry it was pushed) and approves over the session.
    const statement = approvalStatementFor(pushed.get(seq)!, "jenny", {
      verdict: "approve",
      nonce: nonceOf("jenny approves"),
    });
    session.send({ type: "approve", id: "a1", request: await signApproval(k.jenny, "jenny", statement) });
    const ack = await session.next("ack", (f) => f.id === "a1");
    expect(ack.seq).toBe(seq + 3);

    expect(
      (await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "progress", task, body: "adding the card" })).status,
    ).toBe(201);
    expect(
      (await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "receipt", task, body: "card 42 in doing" })).status,
    ).toBe(201);
    const verified = await relay.say(id, checker, {
      seat: "checker",
      kind: "verify",
      task,
      verdict: "pass",
      body: "card 42 is on the board",
    });
    expect(verified.status).toBe(201);

    const tasks = await relay.read(id, `/tables/${id}/tasks`, k.jenny, { owner: "jenny" });
    expect(tasks.body.items as TaskState[]).toEqual([
      expect.objectContaining({ id: task, state: "verified", executor: "bot-jenny" }),
    ]);

    const exported = await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" });
    const report = await verifyExport(exported.body, { relayKey: decided.body.head.relay });
    expect(report, JSON.stringify(report)).toMatchObject({
      verdict: "CLEAN",
      coverage: { policy_replay: "full", head_seq: verified.body.head.seq },
    });

    // One altered byte in jenny's approval (its verdict) and the export no longer verifies.
    const text = exported.body as string;
    const altered = text.replace('"verdict":"approve"', '"verdict":"reject"');
    expect(altered).not.toBe(text);
    expect((await verifyExport(altered, { relayKey: decided.body.head.relay })).verdict).toBe("REFUTED");
    session.ws.close();
  });
});
