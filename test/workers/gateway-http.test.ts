import { SELF, env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  approvalStatementFor,
  canonicalSha256,
  signApproval,
  signSocketAuth,
  signSubmission,
  wsCloseCodeOf,
  type ApprovalStatement,
  type Effect,
  type Entry,
  type Signer,
} from "../../src/protocol/index.js";
import { unwrap } from "../../durable-objects/result.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { bindVia, drain, ownerDO, requests } from "../support/chat-driver.js";
import { approveHttp, CARD_EFFECT, gatewayConfig, ownerSession } from "../support/gateway.js";
import { RelayHttp, tableHead, type Reply } from "../support/relay-http.js";
import { refused } from "../support/refused.js";
import { TestSocket } from "../support/socket.js";
import { cast, keyOf, nonceOf, type Cast } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);
const MERGE: Effect = { owner: "tao", resource: "github:tao/app", action: "merge", args: { pr: 459 } };
let k: Cast;

beforeAll(async () => {
  k = await cast("gateway-http");
});

/** Opens a gateway room `id` (jenny accepts async approvals, tao does not) with every seat joined; `keys.tao` replaces tao's key. */
async function room(id: string, keys: { tao?: Signer } = {}): Promise<void> {
  const tao = keys.tao ?? k.tao;
  const config = gatewayConfig(k, { id });
  config.owners.tao = { public_key: tao.publicKeyText };
  config.owners.jenny = { ...config.owners.jenny!, approvals: "async" };
  expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
  const owners = { tao, jenny: k.jenny, ops: k.ops };
  for (const [seat, owner] of [
    ["x", "tao"],
    ["y", "jenny"],
    ["y2", "jenny"],
    ["c", "ops"],
    ["h", "tao"],
  ] as const) {
    const joined = await relay.join(id, owners[owner], owner, seat, await keyOf(`seat:${seat}`), {
      human: seat === "h",
    });
    expect(joined.status).toBe(201);
  }
}

/** Writes as `seat` (its key derived from its name). */
async function write(id: string, seat: string, input: Record<string, unknown>): Promise<Reply> {
  return relay.say(id, await keyOf(`seat:${seat}`), { seat, ...input } as never);
}

/** Proposes `effects` as x; returns the proposal's seq. */
async function propose(id: string, effects: Effect[] = [CARD_EFFECT]): Promise<number> {
  const reply = await write(id, "x", { kind: "proposal", body: "put #459 on the board", effects });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.seq;
}

/** jenny's approval statement for her task of the proposal at `seq`, built from the entry she reads. */
async function statementFor(
  id: string,
  seq: number,
  change: Partial<ApprovalStatement> = {},
): Promise<ApprovalStatement> {
  const page = await relay.read(id, `/tables/${id}/entries?from=${seq}&to=${seq}`, k.jenny, { owner: "jenny" });
  const entry = page.body.items[0] as Entry;
  return {
    ...approvalStatementFor(entry, "jenny", {
      verdict: "approve",
      nonce: nonceOf(`${id}:${seq}:${JSON.stringify(change)}`),
    }),
    ...change,
  };
}

describe("POST /tables/:id/approvals", () => {
  it("records the owner's approval and answers with the task's new state", async () => {
    const id = "gw-approve";
    await room(id);
    const seq = await propose(id);
    const reply = await approveHttp(relay, "jenny", k.jenny, await statementFor(id, seq));
    expect(reply).toMatchObject({ status: 201, body: { seq: seq + 2, task: `${seq}.jenny`, state: "approved" } });
  });

  it("answers a replayed approval with the same seq and appends nothing", async () => {
    const id = "gw-replay";
    await room(id);
    const seq = await propose(id);
    const request = await signApproval(k.jenny, "jenny", await statementFor(id, seq));
    const first = await relay.request("POST", `/tables/${id}/approvals`, request);
    const again = await relay.request("POST", `/tables/${id}/approvals`, request);
    expect(again).toMatchObject({ status: 201, body: { seq: first.body.seq, head: first.body.head } });
  });

  describe("when the approval is wrong", () => {
    const id = "gw-wrong";
    let seq: number;
    beforeAll(async () => {
      await room(id);
      seq = await propose(id);
    });

    it("refuses jenny's approval signed with another owner's key (E_BAD_SIGNATURE)", async () =>
      refused("E_BAD_SIGNATURE", async () => approveHttp(relay, "jenny", k.tao, await statementFor(id, seq)), {
        unmoved: tableHead(relay, id),
      }));

    it("refuses another owner approving jenny's task with their own key (E_FORBIDDEN)", async () =>
      refused("E_FORBIDDEN", async () => approveHttp(relay, "tao", k.tao, await statementFor(id, seq)), {
        unmoved: tableHead(relay, id),
      }));

    it("refuses an approval for altered effects (E_APPROVAL_MISMATCH)", async () => {
      const altered = canonicalSha256([{ ...CARD_EFFECT, args: { title: "delete the board" } }]);
      await refused(
        "E_APPROVAL_MISMATCH",
        async () => approveHttp(relay, "jenny", k.jenny, await statementFor(id, seq, { effects_sha256: altered })),
        { unmoved: tableHead(relay, id) },
      );
    });

    it("refuses an approval of a task that does not exist (E_UNKNOWN_TASK)", async () =>
      refused(
        "E_UNKNOWN_TASK",
        async () => approveHttp(relay, "jenny", k.jenny, await statementFor(id, seq, { task: `${seq + 50}.jenny` })),
        { unmoved: tableHead(relay, id) },
      ));

    it("refuses an approval signed for another table (E_WRONG_TABLE)", async () => {
      const statement = await statementFor(id, seq, { table: "gw-elsewhere" });
      await refused(
        "E_WRONG_TABLE",
        async () => relay.request("POST", `/tables/${id}/approvals`, await signApproval(k.jenny, "jenny", statement)),
        { unmoved: tableHead(relay, id) },
      );
    });

    it("refuses an approval in the name of someone who is not an owner (E_NOT_OWNER)", async () => {
      const mallory = await keyOf("owner:mallory");
      await refused("E_NOT_OWNER", async () => approveHttp(relay, "mallory", mallory, await statementFor(id, seq)), {
        unmoved: tableHead(relay, id),
      });
    });

    it("refuses a malformed approval body (E_SCHEMA)", async () => {
      const request = await signApproval(k.jenny, "jenny", await statementFor(id, seq));
      await refused("E_SCHEMA", () => relay.request("POST", `/tables/${id}/approvals`, { ...request, extra: true }), {
        unmoved: tableHead(relay, id),
      });
      await refused(
        "E_SCHEMA",
        () =>
          relay.request("POST", `/tables/${id}/approvals`, {
            ...request,
            approval: { ...request.approval, verdict: "maybe" },
          }),
        { unmoved: tableHead(relay, id) },
      );
    });
  });

  describe("when the approval comes too late or twice", () => {
    it("refuses a second approval of an approved task (E_TASK_STATE), and a reused nonce on another statement (E_NONCE_REUSED)", async () => {
      const id = "gw-twice";
      await room(id);
      const seq = await propose(id);
      const statement = await statementFor(id, seq);
      expect((await approveHttp(relay, "jenny", k.jenny, statement)).status).toBe(201);
      await refused(
        "E_TASK_STATE",
        async () => approveHttp(relay, "jenny", k.jenny, { ...statement, nonce: nonceOf("fresh nonce") }),
        { unmoved: tableHead(relay, id) },
      );
      await refused(
        "E_NONCE_REUSED",
        async () => approveHttp(relay, "jenny", k.jenny, { ...statement, verdict: "reject" }),
        { unmoved: tableHead(relay, id) },
      );
    });
  });
});

describe("task work over HTTP", () => {
  it("refuses the wrong executor and a self-verification, changing nothing", async () => {
    const id = "gw-work";
    await room(id);
    const seq = await propose(id);
    const task = `${seq}.jenny`;
    expect((await approveHttp(relay, "jenny", k.jenny, await statementFor(id, seq))).status).toBe(201);
    await refused("E_NOT_EXECUTOR", () => write(id, "x", { kind: "progress", task }), {
      unmoved: tableHead(relay, id),
    });
    expect((await write(id, "y", { kind: "progress", task })).status).toBe(201);
    expect((await write(id, "y", { kind: "receipt", task, body: "done" })).status).toBe(201);
    await refused("E_SELF_VERIFY", () => write(id, "y", { kind: "verify", task, verdict: "pass", body: "trust me" }), {
      unmoved: tableHead(relay, id),
    });
    const failed = await write(id, "c", { kind: "verify", task, verdict: "fail", body: "no card" });
    expect(failed.status).toBe(201);
    const tasks = await relay.read(id, `/tables/${id}/tasks`, await keyOf("seat:c"), { seat: "c" });
    expect(tasks.body).toEqual({
      items: [expect.objectContaining({ id: task, state: "failed", executor: "y" })],
      next: null,
      head: expect.objectContaining({ table: id }),
    });
  });

  it("refuses responses that match no open request, each with its own code", async () => {
    const id = "gw-requests";
    await room(id);
    await refused(
      "E_UNKNOWN_REQUEST",
      () => write(id, "c", { kind: "response", request_id: "nope", type: "plan_approval", verdict: "approve" }),
      { unmoved: tableHead(relay, id) },
    );
    expect(
      (await write(id, "y", { kind: "request", request_id: "plan-1", type: "plan_approval", to: ["c"], body: "ok?" }))
        .status,
    ).toBe(201);
    await refused(
      "E_WRONG_RESPONSE_TYPE",
      () => write(id, "c", { kind: "response", request_id: "plan-1", type: "shutdown", verdict: "approve" }),
      { unmoved: tableHead(relay, id) },
    );
    expect(
      (await write(id, "c", { kind: "response", request_id: "plan-1", type: "plan_approval", verdict: "approve" }))
        .status,
    ).toBe(201);
    await refused(
      "E_ALREADY_RESOLVED",
      () => write(id, "c", { kind: "response", request_id: "plan-1", type: "plan_approval", verdict: "reject" }),
      { unmoved: tableHead(relay, id) },
    );
  });

  it("stops pushing to the socket of a seat that left by shutdown: it gets its seat_left, then the socket closes", async () => {
    const id = "gw-shutdown-socket";
    await room(id);
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "y2", await keyOf("seat:y2"));
    const closed = new Promise<number>((resolve) => socket.ws.addEventListener("close", (e) => resolve(e.code)));
    expect(
      (
        await write(id, "x", {
          kind: "request",
          request_id: "bye-y2",
          type: "shutdown",
          to: ["y2"],
          body: "please leave",
        })
      ).status,
    ).toBe(201);
    const left = await write(id, "y2", {
      kind: "response",
      request_id: "bye-y2",
      type: "shutdown",
      verdict: "approve",
    });
    expect(left.status).toBe(201);
    await socket.until(left.body.head.seq);
    const after = await write(id, "x", { kind: "say", body: "said after y2 left" });
    expect(after.status).toBe(201);
    // A seat that left cannot read (§6.2); its socket is not a way around that.
    expect(await closed).toBe(wsCloseCodeOf("E_UNKNOWN_SEAT"));
    expect(socket.seqs()).not.toContain(after.body.seq);
    expect(socket.seqs().at(-1)).toBe(left.body.head.seq);
  });

  it("refuses GET /tasks without a signed authorization", async () => {
    const id = "gw-tasks-auth";
    await room(id);
    expect(await relay.request("GET", `/tables/${id}/tasks`)).toMatchObject({
      status: 401,
      body: { error: { code: "E_AUTH" } },
    });
  });
});

describe("E_NO_APPROVER", () => {
  it("refuses a proposal whose task would wait for an owner nobody can answer for, changing nothing", async () => {
    const id = "gw-no-approver";
    await room(id);
    const reply = await refused(
      "E_NO_APPROVER",
      () => write(id, "y", { kind: "proposal", body: "merge it", effects: [MERGE, CARD_EFFECT] }),
      { unmoved: tableHead(relay, id) },
    );
    expect(reply.body.error.details).toEqual({ owners: ["tao"] });
  });

  it("accepts it while the owner's human seat is connected", async () => {
    const id = "gw-human-seat";
    await room(id);
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "h", await keyOf("seat:h"));
    expect((await write(id, "y", { kind: "proposal", body: "merge it", effects: [MERGE] })).status).toBe(201);
    socket.ws.close();
  });

  it("accepts it while the owner has a live owner session", async () => {
    const id = "gw-owner-session";
    await room(id);
    const session = await ownerSession(fetcher, id, "tao", k.tao);
    expect((await write(id, "y", { kind: "proposal", body: "merge it", effects: [MERGE] })).status).toBe(201);
    session.ws.close();
  });

  it("accepts it once a chat channel of the owner has delivered (OwnerDO health), and asks there for the approval", async () => {
    const id = "gw-channel";
    const tao = await keyOf(`owner:${id}:tao`);
    await room(id, { tao });
    await bindVia("telegram", tao, "8501");
    await refused("E_NO_APPROVER", () => write(id, "y", { kind: "proposal", body: "merge it", effects: [MERGE] }), {
      unmoved: tableHead(relay, id),
    });
    await drain(tao.publicKeyText);
    expect(unwrap(await ownerDO(tao.publicKeyText).hasProvenChannel(tao.publicKeyText))).toBe(true);
    const proposed = await write(id, "y", { kind: "proposal", body: "merge it", effects: [MERGE] });
    expect(proposed.status).toBe(201);
    await runInDurableObject(env.TABLES.getByName(id), (t: TableDO) => t.table.noticesSettled());
    await drain(tao.publicKeyText);
    const texts = (await requests('"chat_id":"8501"')).map((r) => (r.body as { text: string }).text);
    expect(texts.some((text) => text.includes(`${proposed.body.seq}.tao`) && text.includes("merge"))).toBe(true);
  });
});

describe("when the same proposal arrives twice while the relay asks whether somebody can approve", () => {
  /** Makes the table's channel probe wait until `callers` writes are inside it, then answer yes to all. */
  async function probeHoldingFor(id: string, callers: number): Promise<void> {
    await runInDurableObject(env.TABLES.getByName(id), (t: TableDO) => {
      let arrived = 0;
      let release!: () => void;
      const all = new Promise<void>((resolve) => (release = resolve));
      const probe = async () => {
        if (++arrived === callers) release();
        await all;
        return true;
      };
      Object.assign(t.table, { channels: probe });
    });
  }

  it("answers each copy of the statement that won the nonce with its one entry, and the other statement with E_NONCE_REUSED", async () => {
    const id = "gw-probe-race";
    await room(id);
    await probeHoldingFor(id, 3);
    const key = await keyOf("seat:y");
    const submission = {
      table: id,
      seat: "y",
      nonce: nonceOf(`${id}:race`),
      kind: "proposal" as const,
      body: "merge it",
      effects: [MERGE],
    };
    const same = await signSubmission(key, submission);
    const other = await signSubmission(key, { ...submission, body: "merge it now" });
    const before = await relay.request("GET", `/tables/${id}/head`);
    const [first, again, reused] = await Promise.all([
      relay.request("POST", `/tables/${id}/entries`, same),
      relay.request("POST", `/tables/${id}/entries`, same),
      relay.request("POST", `/tables/${id}/entries`, other),
    ]);
    // All three wait inside the probe and resume in the order they reached it, which the runtime
    // does not promise to be the order sent: either statement may win the nonce, never both.
    const [winners, losers] = reused.status === 201 ? [[reused], [first, again]] : [[first, again], [reused]];
    for (const won of winners) expect([won.status, won.body.seq]).toEqual([201, winners[0]!.body.seq]);
    for (const lost of losers) expect(lost.body).toMatchObject({ error: { code: "E_NONCE_REUSED" } });
    const after = await relay.request("GET", `/tables/${id}/head`);
    // The proposal, tao's task_opened: nothing more.
    expect(after.body.seq).toBe(before.body.seq + 2);
  });
});

describe("owner sessions", () => {
  it("approve over the socket, but only for their own owner", async () => {
    const id = "gw-session-approve";
    await room(id);
    const seq = await propose(id);
    const session = await ownerSession(fetcher, id, "jenny", k.jenny);
    session.send({
      type: "approve",
      id: "mine",
      request: await signApproval(k.jenny, "jenny", await statementFor(id, seq)),
    });
    expect(await session.next("ack", (f) => f.id === "mine")).toMatchObject({ seq: expect.any(Number) });
    const taos = { ...(await statementFor(id, seq)), task: `${seq}.tao` };
    session.send({ type: "approve", id: "theirs", request: await signApproval(k.tao, "tao", taos) });
    expect(await session.next("error", (f) => f.id === "theirs")).toMatchObject({ error: { code: "E_FORBIDDEN" } });
    session.ws.close();
  });

  it("cannot submit for a seat, and a seat socket cannot approve", async () => {
    const id = "gw-session-roles";
    await room(id);
    const seq = await propose(id);
    const request = await signApproval(k.jenny, "jenny", await statementFor(id, seq));
    const session = await ownerSession(fetcher, id, "jenny", k.jenny);
    const submission = await signSubmission(await keyOf("seat:y"), {
      table: id,
      seat: "y",
      nonce: nonceOf("owner submits"),
      kind: "say",
      body: "hi",
    });
    session.send({ type: "submit", id: "s1", request: submission });
    expect(await session.next("error", (f) => f.id === "s1")).toMatchObject({ error: { code: "E_FORBIDDEN" } });
    const seat = await TestSocket.open(fetcher, id);
    await seat.auth(id, "y", await keyOf("seat:y"));
    seat.send({ type: "approve", id: "a1", request });
    expect(await seat.next("error", (f) => f.id === "a1")).toMatchObject({ error: { code: "E_FORBIDDEN" } });
    session.ws.close();
    seat.ws.close();
  });

  it("closes with E_AUTH when the challenge is not signed by that owner's key", async () => {
    const id = "gw-session-auth";
    await room(id);
    const socket = await TestSocket.open(fetcher, id);
    const challenge = await socket.next("challenge");
    const closed = new Promise<number>((resolve) => socket.ws.addEventListener("close", (e) => resolve(e.code)));
    const sig = await signSocketAuth(k.tao, { scope: "ws", table: id, seat: "jenny", challenge: challenge.challenge });
    socket.send({ type: "owner_auth", owner: "jenny", sig });
    expect(await socket.next("error")).toMatchObject({ error: { code: "E_AUTH" } });
    expect(await closed).toBe(4401);
  });
});
