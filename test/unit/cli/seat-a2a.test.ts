/**
 * `trestle seat --a2a` (docs/AGENTS.md) against a real relay and an A2A agent built with
 * @a2a-js/sdk's own server classes (DefaultRequestHandler, InMemoryTaskStore, an AgentExecutor,
 * the express JSON-RPC and agent-card handlers) on 127.0.0.1: a debate turn answered with a data
 * part, a task in input-required answered by the owner and completed in the same task, the same
 * question passed when nobody can answer, and a failed task refused clearly. In an end-to-end
 * encrypted room the question and the answer are sealed with the room key on the relay, and the
 * agent gets the answer opened.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo, Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { Message, Task, TaskState } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, ownerKeyPath, readKeyFile } from "../../../src/client/node.js";
import { debaterCard } from "../../support/a2a-card.js";
import { cli } from "../../support/cli.js";
import { authoredEntries, cliDebate } from "../../support/cli-debate.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";
import { leaks, UNDER_FLOOR } from "../../support/owner-secrets.js";
import { refusedThenTurn, rulesRoom } from "../../support/rules-room.js";

let home: string;
let t: ReturnType<typeof cli>;
let server: Server;
let url: string;
let relayUrl: string;
/** What the agent does for each seat: reply, ask the owner, fail, or answer nothing. */
const modes = new Map<string, "reply" | "ask" | "ask-long" | "fail" | "silent" | "offer-under-floor">();
/** Every message part the agent received for a seat in mode offer-under-floor, as JSON. */
const probed: string[] = [];
/** The question of mode ask-long: longer than a question to the owner may be (1000 chars). */
const LONG_QUESTION = `Which release ships first? ${"Weigh #459 against #461 with care. ".repeat(40)}Answer in one line.`;
/** The owners' answers as the agent received them in data, in the task that asked. */
const answers: string[] = [];
/** The same answers' text parts: framed as the owner's words. */
const framedAnswers: string[] = [];
/** The turns the agent received: the seat, and whether a framed text part and the turn's data part came with it. */
const received: { seat: string; framed: boolean; reason: string }[] = [];

const agentMessage = (contextId: string, part: { text: string } | { data: unknown }) =>
  Message.fromJSON({ messageId: crypto.randomUUID(), contextId, role: "ROLE_AGENT", parts: [part] });

/** The agent: the turn's data part names the seat, and the seat's mode says what it answers. */
const executor: AgentExecutor = {
  async execute(context, bus) {
    const { taskId, contextId } = context;
    const parts = context.userMessage.parts;
    if (context.task) {
      // The owner's answer, in the same task, framed as the owner's (text) and as data: complete with a say that carries it.
      framedAnswers.push(parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])).join(""));
      const told = parts.flatMap((p) =>
        p.content?.$case === "data" ? [p.content.value as { owner_answer: { value: string } }] : [],
      )[0];
      const answer = told?.owner_answer.value ?? "";
      answers.push(answer);
      bus.publish(AgentEvent.task(context.task));
      const status = {
        state: TaskState.TASK_STATE_COMPLETED,
        message: agentMessage(contextId, { data: { kind: "say", body: `my owner says: ${answer}` } }),
        timestamp: undefined,
      };
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
      return bus.finished();
    }
    const turn = parts.find((p) => p.content?.$case === "data")?.content?.value as { seat: string; reason: string };
    if (modes.get(turn.seat) === "offer-under-floor") {
      // The first turn offers under the owner's floor; each later one says it is still here.
      probed.push(JSON.stringify(parts));
      const reply =
        probed.length === 1
          ? { data: { kind: "offer", body: "the house", terms: { amount: UNDER_FLOOR, currency: "TWD" } } }
          : { text: "still here" };
      bus.publish(AgentEvent.message(agentMessage(contextId, reply)));
      return bus.finished();
    }
    received.push({
      seat: turn.seat,
      framed: parts.some((p) => p.content?.$case === "text" && p.content.value.includes("<<<TRESTLE-DATA ")),
      reason: turn.reason,
    });
    const mode = modes.get(turn.seat) ?? "reply";
    if (mode === "reply" || mode === "silent") {
      bus.publish(
        AgentEvent.message(agentMessage(contextId, { text: mode === "reply" ? `${turn.seat} argues over A2A` : "" })),
      );
      return bus.finished();
    }
    const [state, text] =
      mode === "ask"
        ? ["TASK_STATE_INPUT_REQUIRED", "Which release ships first?"]
        : mode === "ask-long"
          ? ["TASK_STATE_INPUT_REQUIRED", LONG_QUESTION]
          : ["TASK_STATE_FAILED", "model quota exceeded"];
    bus.publish(
      AgentEvent.task(
        Task.fromJSON({
          id: taskId,
          contextId,
          status: { state, message: { messageId: crypto.randomUUID(), role: "ROLE_AGENT", parts: [{ text }] } },
        }),
      ),
    );
    bus.finished();
  },
  async cancelTask() {},
};

beforeAll(async () => {
  const relay = await sharedRelay();
  relayUrl = relay.url;
  home = mkdtempSync(join(tmpdir(), "trestle-seat-a2a-"));
  t = cli(home, relay.url);
  for (const owner of ["tao", "jenny", "ops"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
  const app = express();
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = debaterCard(`${url}/a2a/jsonrpc`);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: async () => card }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
}, 60_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The judge, a one-line script that decides. */
function judgeScript(): string {
  const path = join(home, "judge.sh");
  writeFileSync(path, `#!/bin/sh\ncat > /dev/null\necho '{"kind":"decision","body":"decided"}'\n`, { mode: 0o755 });
  return path;
}

/** tao watching `table` (an owner session, so tao's seat can ask) and bot-tao seated with the agent, once the agent's question reached the relay: the two runs and the question's id. */
async function taoAsked(table: string) {
  const watching = t.start(["watch", "--table", table, "--owner", "tao"]);
  await watching.printed(/watching .* as owner tao/);
  const pro = t.start(["seat", "--table", table, "--seat", "bot-tao", "--a2a", url]);
  const [, question] = await pro.printed(/the agent asked the owner: question (\S+)/);
  return { watching, pro, question: question! };
}

async function authored(table: string): Promise<string[]> {
  return (await authoredEntries(t, table)).map((e) => `${e.seat} ${e.kind}: ${e.body}`);
}

describe("trestle seat --a2a", { timeout: 90_000 }, () => {
  it("takes debate turns from the agent's reply, and refuses a failed task clearly, then passes", async () => {
    const table = await cliDebate(t, home, "seat-a2a", 1);
    modes.set("bot-tao", "reply").set("bot-jenny", "fail");
    const seat = (name: string) => t.run(["seat", "--table", table, "--seat", name, "--a2a", url]);
    const [pro, con, judge] = await Promise.all([
      seat("bot-tao"),
      seat("bot-jenny"),
      t.run(["seat", "--table", table, "--seat", "judge", "--exec", judgeScript()]),
    ]);
    for (const run of [pro, con, judge]) expect(run.code, run.stderr).toBe(0);
    expect(await authored(table)).toEqual([
      "bot-tao say: bot-tao argues over A2A",
      "bot-jenny pass: ",
      "judge decision: decided",
    ]);
    expect(received.filter((r) => r.seat === "bot-tao")).toEqual([{ seat: "bot-tao", framed: true, reason: "floor" }]);
    expect(con.stderr).toMatch(
      /turn refused: E_AGENT \(failed\): the A2A agent's task ended failed \(it said: model quota exceeded\); nothing was written; the seat passed/,
    );
  });

  it("puts the agent's input-required question to the owner and sends the answer back in the same task; with nobody to answer, the seat passes", async () => {
    const table = await cliDebate(t, home, "seat-a2a-ask", 1);
    modes.set("bot-tao", "ask").set("bot-jenny", "ask");
    // tao is live (an owner session), so tao's seat can ask; jenny is not, so hers cannot (E_NO_ANSWERER).
    const con = t.run(["seat", "--table", table, "--seat", "bot-jenny", "--a2a", url]);
    const judge = t.run(["seat", "--table", table, "--seat", "judge", "--exec", judgeScript()]);
    const { watching, pro, question } = await taoAsked(table);
    const listed = await t.json(["answer", "--list", "--table", table, "--owner", "tao"]);
    expect(listed.body!.questions).toMatchObject([
      { question: { question, seat: "bot-tao", text: "Which release ships first?" }, state: "open" },
    ]);
    // `--` before the question's id: an id is base64url and may start with "-", which would read as a flag.
    expect((await t.run(["answer", "--table", table, "--owner", "tao", "--", question, "#461 first"])).code).toBe(0);
    for (const run of await Promise.all([pro.done, con, judge])) expect(run.code, run.stderr).toBe(0);
    watching.child.kill("SIGINT");
    await watching.done;
    expect(await authored(table)).toEqual([
      "bot-tao say: my owner says: #461 first",
      "bot-jenny pass: ",
      "judge decision: decided",
    ]);
    // The text part frames the answer as the owner's, saying it is verified (signed with the owner key), every line behind the body mark.
    expect(framedAnswers.at(-1)).toMatch(/^‖ your owner answered \(verified: .*\):\n‖\| #461 first$/);
  });

  it("puts a question longer than the owner's 1000 characters to the owner cut to fit, with a mark saying so", async () => {
    const table = await cliDebate(t, home, "seat-a2a-long", 1);
    modes.set("bot-tao", "ask-long");
    const { watching, pro, question } = await taoAsked(table);
    const listed = await t.json(["answer", "--list", "--table", table, "--owner", "tao"]);
    const text = (listed.body!.questions as { question: { text: string } }[])[0]!.question.text;
    expect(LONG_QUESTION.length).toBeGreaterThan(1000);
    expect(text).toHaveLength(1000);
    expect(text).toMatch(
      new RegExp(
        `^Which release ships first\\? Weigh #459 .* \\[…cut: the agent's question is ${LONG_QUESTION.length} characters, a question to you at most 1000\\]$`,
      ),
    );
    expect(LONG_QUESTION.startsWith(text.slice(0, text.indexOf(" […cut")))).toBe(true);
    const answered = await t.run(["answer", "--table", table, "--owner", "tao", "--", question, "#461 first"]);
    expect(answered.code, answered.stderr).toBe(0);
    await pro.printed(/wrote say as entry #\d+/);
    pro.child.kill("SIGINT");
    watching.child.kill("SIGINT");
    const [ran] = await Promise.all([pro.done, watching.done]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(answers.at(-1)).toBe("#461 first");
  });

  it("ends at once on SIGTERM while the agent's question waits for the owner, saying the wait was cancelled", async () => {
    const table = await cliDebate(t, home, "seat-a2a-term", 1);
    modes.set("bot-tao", "ask");
    const { watching, pro, question } = await taoAsked(table);
    pro.child.kill("SIGTERM");
    const ran = await pro.done;
    watching.child.kill("SIGINT");
    await watching.done;
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain("SIGTERM: stopping the seat");
    expect(ran.stderr).toContain(
      `stopped waiting for the owner's answer to question ${question}: the seat is stopping, and an answer given now reaches no agent`,
    );
    expect(ran.stdout).toMatch(/seat bot-tao at \S+: stopped at entry #\d+/);
  });

  it("under --agent-view rules gives the agent no spelling of a secret in any message part, also after its offer under the floor was refused", async () => {
    const room = await rulesRoom(t, "ops", "seat-a2a-rules");
    modes.set(room.bot, "offer-under-floor");
    await refusedThenTurn(t, room, ["--a2a", url]);
    expect(probed).toHaveLength(2);
    for (const parts of probed) expect(leaks(parts)).toEqual([]);
    expect(probed[0]).toContain("below their floor is refused before it is signed");
    const [text, data] = JSON.parse(probed[1]!) as [
      { content: { value: string } },
      { content: { value: { refused: unknown; mandate: string[] } } },
    ];
    expect(text.content.value).toContain(
      "Your last entry was refused and nothing of it was written (E_MANDATE, floor)",
    );
    expect(data.content.value.refused).toEqual({
      code: "E_MANDATE",
      reason: "floor",
      message: "5000000000 TWD (minor units) is below the mandate's floor; it was not committed",
    });
  });

  it("in an end-to-end encrypted room seals the agent's question and the owner's answer for the relay, and gives the agent the answer opened", async () => {
    const table = uniqueTable("seat-a2a-e2e");
    expect((await t.run(["keygen", "--owner", "sara"])).code).toBe(0);
    expect(
      (
        await t.run([
          "room",
          "create",
          "--table",
          table,
          "--topic",
          "A second-hand stroller",
          "--owner",
          "sara",
          "--e2e",
        ])
      ).code,
    ).toBe(0);
    expect((await t.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
    modes.set("sara-bot", "ask");
    const watching = t.start(["watch", "--table", table, "--owner", "sara"]);
    await watching.printed(/watching .* as owner sara/);
    const seat = t.start(["seat", "--table", table, "--seat", "sara-bot", "--a2a", url]);
    const [, question] = await seat.printed(/the agent asked the owner: question (\S+)/);
    // Later turns (the room moved) get nothing from the agent: one question, one answer.
    modes.set("sara-bot", "silent");

    const relay = new HttpClient({ url: relayUrl });
    const owner = await readKeyFile(ownerKeyPath(home, "sara"), "owner");
    const stored = async () =>
      (await relay.questions(table, { signer: owner.signer, as: { owner: "sara" } })).questions;
    const asked = await stored();
    expect(asked).toMatchObject([{ question: { question, seat: "sara-bot" }, state: "open" }]);
    expect(asked[0]!.question.text).toMatch(/^e2e1:/);
    expect(JSON.stringify(asked)).not.toContain("Which release ships first?");
    const listed = await t.json(["answer", "--list", "--table", table, "--owner", "sara"]);
    expect(listed.body!.questions).toMatchObject([{ question: { question, text: "Which release ships first?" } }]);

    expect((await t.run(["answer", "--table", table, "--owner", "sara", "--", question!, "#461 first"])).code).toBe(0);
    await seat.printed(/wrote say as entry #\d+/);
    expect(answers.at(-1)).toBe("#461 first");
    const [answered] = await stored();
    expect(answered!.answer!.value).toMatch(/^e2e1:/);
    expect(JSON.stringify(answered)).not.toContain("#461 first");
    for (const run of [seat, watching]) run.child.kill("SIGINT");
    const [ran] = await Promise.all([seat.done, watching.done]);
    expect(ran.code, ran.stderr).toBe(0);
  });
});
