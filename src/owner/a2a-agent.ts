/**
 * An A2A agent behind a seat (`trestle seat --a2a URL`, docs/AGENTS.md): trestle is the A2A client
 * (@a2a-js/sdk; the CLI imports this file only for --a2a). It speaks A2A v1.0, and v0.3 to an agent
 * whose card is a v0.3 card (a `url` and a `protocolVersion` of 0.3), through the SDK's compat
 * layer. Every request follows redirects only within its origin (a2a-fetch.ts). Each turn is one
 * blocking `SendMessage` in one context per run: a text part with the framed turn and a data part
 * with the same turn as JSON. The reply (a message, or the task's final status message, else its
 * last artifact) is read like a command's output: a data part holding an entry object, else its text.
 * A task in `input-required` becomes a question to the seat's owner (src/client/owner-ask.ts), cut
 * to fit a question's length with a mark saying so, whose answer goes back in the same task and
 * context, framed as the owner's words with whether it is verified (a text part, owner-words.ts) and
 * as data (`{ owner_answer: { value, verified, via } }`); when nobody can answer (E_NO_ANSWERER) or the question expires, the seat passes, and when
 * the seat stops meanwhile the wait ends at once. A failed, rejected or canceled task, an agent that
 * needs authentication, an error or a timeout is E_AGENT. Not streamed: the entry is written whole
 * only once the agent finished, so partial output would change nothing at the table.
 */
import { randomUUID } from "node:crypto";
import { Message, TaskState, type Part, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { askOwner, type Clock, type HttpClient } from "../client/index.js";
import { cutText, LIMITS, TrestleError, type OwnerAnswer, type Signer } from "../protocol/index.js";
import { frameOwnerAnswer } from "../text/owner-words.js";
import { sameOriginFetch } from "./a2a-fetch.js";
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
  /** Called when the seat stopped while question `question` waited for the owner: nobody waits for its answer any more. */
  onAskCancelled?(question: string): void;
}

/** Connects to the agent at `url` (reads its card; E_AGENT when that fails) and returns it as a seat's agent. */
export async function a2aAgent(options: A2aAgentOptions): Promise<SeatAgent> {
  let client: Client;
  try {
    client = await clientFactory().createFromUrl(options.url);
  } catch (error) {
    if (error instanceof TrestleError) throw error;
    throw agentFailed("failed", `cannot reach the A2A agent at ${options.url}: ${messageOf(error)}`);
  }
  let contextId = "";
  const send = async (message: Message, signal: AbortSignal): Promise<Message | Task> => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    try {
      return await client.sendMessage(
        { tenant: "", message, configuration: undefined, metadata: undefined },
        { signal: AbortSignal.any([signal, timeout]) },
      );
    } catch (error) {
      if (error instanceof TrestleError) throw error;
      if (timeout.aborted)
        throw agentFailed(
          "timeout",
          `the A2A agent did not answer within ${options.timeoutMs / 1000} s; nothing was written`,
          { timeout_ms: options.timeoutMs },
        );
      throw agentFailed("failed", `the A2A agent's request failed: ${messageOf(error)}; nothing was written`);
    }
  };
  return {
    driver: "a2a",
    async turn(turn, signal) {
      const first = message(contextId, "", [
        { text: turnText(turn, options.boundary()) },
        { data: JSON.parse(turnJson(turn)) },
      ]);
      let reply = await send(first, signal);
      for (let asked = 0; ; asked += 1) {
        contextId = reply.contextId || contextId;
        if (!("status" in reply)) return replyOf(reply.parts);
        const state = reply.status?.state;
        if (state === TaskState.TASK_STATE_COMPLETED)
          return replyOf(
            reply.status?.message?.parts.length ? reply.status.message.parts : (reply.artifacts.at(-1)?.parts ?? []),
          );
        if (state !== TaskState.TASK_STATE_INPUT_REQUIRED)
          throw agentFailed(
            "failed",
            `the A2A agent's task ended ${stateName(state)}${said(reply.status?.message?.parts)}; nothing was written`,
            { state: stateName(state) },
          );
        if (asked >= MAX_QUESTIONS)
          throw agentFailed(
            "failed",
            `the A2A agent asked ${MAX_QUESTIONS} questions in one turn; nothing was written`,
          );
        const answer = await ownerAnswer(
          options,
          textOf(reply.status?.message?.parts ?? []) || "The agent needs your input to go on.",
          signal,
        );
        if (answer === null) return { data: { kind: "pass", body: "" } };
        const told = { owner_answer: { value: answer.value, verified: answer.verified, via: answer.via } };
        reply = await send(
          message(reply.contextId, reply.id, [{ text: frameOwnerAnswer(answer) }, { data: told }]),
          signal,
        );
      }
    },
  };
}

/** The client factory: JSON-RPC and HTTP+JSON transports of v1.0 and of v0.3 (by the card's shape and protocolVersion), every request through sameOriginFetch. */
function clientFactory(): ClientFactory {
  const fetchImpl = sameOriginFetch();
  const legacyCompat = { enabled: true };
  return new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
}

/** The agent's question `text` as a question to the owner: whole when it fits LIMITS.note_chars, else its start and a mark saying how much was cut. */
function fitQuestion(text: string): string {
  if (text.length <= LIMITS.note_chars) return text;
  const mark = ` […cut: the agent's question is ${text.length} characters, a question to you at most ${LIMITS.note_chars}]`;
  return `${cutText(text, LIMITS.note_chars - mark.length)}${mark}`;
}

/** The owner's answer to the agent's question `text`, or null when nobody can answer now or it expired; E_AGENT at once when `signal` aborts (the seat stops) while it waits. */
async function ownerAnswer(options: A2aAgentOptions, text: string, signal: AbortSignal): Promise<OwnerAnswer | null> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let question: string | null = null;
  const stopped = () =>
    agentFailed(
      "failed",
      `the seat stopped while the agent's question${question === null ? "" : ` ${question}`} waited for the owner; the wait was cancelled and nothing was written`,
    );
  const waiting = (ms: number) => {
    if (signal.aborted) return Promise.reject(stopped());
    return new Promise<void>((resolve, reject) => {
      const abort = () => reject(stopped());
      signal.addEventListener("abort", abort, { once: true });
      sleep(ms).then(() => {
        signal.removeEventListener("abort", abort);
        resolve();
      }, reject);
    });
  };
  try {
    const seal = options.words.sealer(options.seat, "question");
    const asked = await askOwner(
      options.http,
      options.table,
      options.signer,
      options.seat,
      { text: fitQuestion(text), wait_ms: OWNER_WAIT_MS },
      {
        clock: options.clock,
        sleep: waiting,
        ...(seal ? { seal } : {}),
        asked: (taken) => {
          question = taken.question;
          options.onAsk?.(taken.question);
        },
      },
    );
    return (await options.words.openQuestion(asked)).answer ?? null;
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_NO_ANSWERER") return null;
    if (signal.aborted && question !== null) options.onAskCancelled?.(question);
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
  if (!parts.some((p) => p.content?.$case === "text"))
    throw agentFailed("no_reply", "the A2A agent's reply holds no text or data part; nothing was written");
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
  return state === undefined
    ? "without a state"
    : (TaskState[state] ?? String(state))
        .replace(/^TASK_STATE_/, "")
        .toLowerCase()
        .replace("_", "-");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
