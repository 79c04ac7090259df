/**
 * An A2A agent behind a seat (`trestle seat --a2a URL`, docs/AGENTS.md): trestle is the A2A client
 * (@a2a-js/sdk, A2A v1.0; the CLI imports this file only for --a2a). Each turn is one blocking
 * `SendMessage` in one context per run: a text part with the framed turn and a data part with the
 * same turn as JSON. The reply (a message, or the task's final status message, else its last
 * artifact) is read like a command's output: a data part holding an entry object, else its text.
 * A task in `input-required` becomes a question to the seat's owner (src/client/owner-ask.ts),
 * whose answer goes back in the same task and context; when nobody can answer (E_NO_ANSWERER) or
 * the question expires, the seat passes. A failed, rejected or canceled task, an agent that needs
 * authentication, an error or a timeout is E_AGENT. Not streamed: the entry is written whole only
 * once the agent finished, so partial output would change nothing at the table.
 */
import { randomUUID } from "node:crypto";
import { Message, TaskState, type Part, type Task } from "@a2a-js/sdk";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { askOwner, type Clock, type HttpClient } from "../client/index.js";
import { TrestleError, type Signer } from "../protocol/index.js";
import { agentFailed, turnJson, turnText, type AgentReply } from "./agent-turn.js";
import type { OwnerWords } from "./owner-words-sealing.js";
import type { SeatAgent } from "./seat-driver.js";

/** How long the owner has to answer an agent's question. */
const OWNER_WAIT_MS = 600_000;
/** How many questions one turn may put to the owner before it is refused. */
const MAX_QUESTIONS = 4;

/** What the A2A agent needs. */
export interface A2aAgentOptions {
  /** The agent's base URL (its card at /.well-known/agent-card.json). */
  url: string;
  /** How long one request to the agent may take. */
  timeoutMs: number;
  /** The relay, for questions to the seat's owner. */
  http: HttpClient;
  table: string;
  seat: string;
  /** The seat key: the seat asks its owner. */
  signer: Signer;
  /** The owner words at this table: sealed with the room key in an end-to-end encrypted room. */
  words: OwnerWords;
  clock: Clock;
  /** A fresh random data-block boundary. */
  boundary(): string;
  /** How the seat waits between looks at an open question (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Called when the agent's question is put to the owner. */
  onAsk?(question: string): void;
}

/** Connects to the agent at `url` (reads its card; E_AGENT when that fails) and returns it as a seat's agent. */
export async function a2aAgent(options: A2aAgentOptions): Promise<SeatAgent> {
  let client: Client;
  try {
    client = await new ClientFactory().createFromUrl(options.url);
  } catch (error) {
    throw agentFailed("failed", `cannot reach the A2A agent at ${options.url}: ${messageOf(error)}`);
  }
  let contextId = "";
  const send = async (message: Message, signal: AbortSignal): Promise<Message | Task> => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    try {
      return await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined }, { signal: AbortSignal.any([signal, timeout]) });
    } catch (error) {
      if (timeout.aborted) throw agentFailed("timeout", `the A2A agent did not answer within ${options.timeoutMs / 1000} s; nothing was written`, { timeout_ms: options.timeoutMs });
      throw agentFailed("failed", `the A2A agent's request failed: ${messageOf(error)}; nothing was written`);
    }
  };
  return {
    driver: "a2a",
    async turn(turn, signal) {
      const first = message(contextId, "", [{ text: turnText(turn, options.boundary()) }, { data: JSON.parse(turnJson(turn)) }]);
      let reply = await send(first, signal);
      for (let asked = 0; ; asked += 1) {
        contextId = reply.contextId || contextId;
        if (!("status" in reply)) return replyOf(reply.parts);
        const state = reply.status?.state;
        if (state === TaskState.TASK_STATE_COMPLETED) return replyOf(reply.status?.message?.parts.length ? reply.status.message.parts : (reply.artifacts.at(-1)?.parts ?? []));
        if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) throw agentFailed("failed", `the A2A agent's task ended ${stateName(state)}${said(reply.status?.message?.parts)}; nothing was written`, { state: stateName(state) });
        if (asked >= MAX_QUESTIONS) throw agentFailed("failed", `the A2A agent asked ${MAX_QUESTIONS} questions in one turn; nothing was written`);
        const answer = await ownerAnswer(options, textOf(reply.status?.message?.parts ?? []) || "The agent needs your input to go on.");
        if (answer === null) return { data: { kind: "pass", body: "" } };
        reply = await send(message(reply.contextId, reply.id, [{ text: answer }]), signal);
      }
    },
  };
}

/** The owner's answer to the agent's question `text`, or null when nobody can answer now or it expired. */
async function ownerAnswer(options: A2aAgentOptions, text: string): Promise<string | null> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  try {
    const seal = options.words.sealer(options.seat, "question");
    const asked = await askOwner(options.http, options.table, options.signer, options.seat, { text: text.slice(0, 2000), wait_ms: OWNER_WAIT_MS }, {
      clock: options.clock,
      sleep,
      ...(seal ? { seal } : {}),
      asked: (taken) => options.onAsk?.(taken.question),
    });
    return (await options.words.openQuestion(asked)).answer?.value ?? null;
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_NO_ANSWERER") return null;
    throw error;
  }
}

/** A user message in `contextId` (and task `taskId`), empty ids left to the agent. */
function message(contextId: string, taskId: string, parts: readonly ({ text: string } | { data: unknown })[]): Message {
  const typed = parts.map((part) => ({ ...part, mediaType: "text" in part ? "text/plain" : "application/json" }));
  return Message.fromJSON({ messageId: randomUUID(), contextId, taskId, role: "ROLE_USER", parts: typed });
}

/** The answer in reply parts: the first data part, else their text; E_AGENT for none. */
function replyOf(parts: readonly Part[]): AgentReply {
  for (const part of parts) if (part.content?.$case === "data") return { data: part.content.value };
  if (!parts.some((p) => p.content?.$case === "text")) throw agentFailed("no_reply", "the A2A agent's reply holds no text or data part; nothing was written");
  return { text: textOf(parts) };
}

function textOf(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])).join("\n");
}

function said(parts: readonly Part[] | undefined): string {
  const text = textOf(parts ?? []).trim();
  return text === "" ? "" : ` (it said: ${text.slice(0, 500)})`;
}

function stateName(state: TaskState | undefined): string {
  return state === undefined ? "without a state" : (TaskState[state] ?? String(state)).replace(/^TASK_STATE_/, "").toLowerCase().replace("_", "-");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
