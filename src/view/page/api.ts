/**
 * The page's two ways of talking to its local server (and to nothing else): the live stream of
 * events, read line by line and reconnected with backoff, and the actions, each a JSON POST
 * carrying the window's token. The server signs; the page only asks.
 */
import type {
  ActionResult,
  AnswerBody,
  ApproveBody,
  ControlBody,
  DealBody,
  DecisionViewWire,
  GateBody,
  GateResult,
  InstructBody,
  LoopResult,
  MarketRoomBody,
  ReconcileBody,
  RevokeBody,
  ViewEvent,
} from "../wire.js";

/** The header the token goes in (access.ts TOKEN_HEADER). */
const TOKEN_HEADER = "x-trestle-token";
/** The header a decision's credential goes in (access.ts DECISION_HEADER). */
const DECISION_HEADER = "x-trestle-decision";

/** What the stream reports besides its events. */
export interface StreamHandlers {
  event(event: ViewEvent): void;
  /** The stream is up (true) or down and being retried (false). */
  live(up: boolean): void;
  /** The server refused the token: retrying cannot help. */
  refused(message: string): void;
}

/** Follows `/api/stream` for good: every event in order; after a drop, again from the start. */
export async function follow(token: string, handlers: StreamHandlers): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch("/api/stream", { headers: { [TOKEN_HEADER]: token } });
      if (response.status === 401 || response.status === 403) return handlers.refused(await errorText(response));
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      handlers.live(true);
      attempt = 0;
      await readLines(response.body, (line) => handlers.event(JSON.parse(line) as ViewEvent));
    } catch {
      // Dropped or not reachable: try again below.
    }
    handlers.live(false);
    await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** attempt)));
  }
}

async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (line !== "") onLine(line);
    }
  }
}

/** The outcome of an action, in words. */
export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Asks the server to sign an approval or rejection. */
export function approve(token: string, body: ApproveBody): Promise<Outcome> {
  return post(token, "/api/approve", body);
}

/** Asks the server to sign a pause or resume. */
export function control(token: string, body: ControlBody): Promise<Outcome> {
  return post(token, "/api/control", body);
}

/** Asks the server to sign a revocation of one of the owner's seats. */
export function revoke(token: string, body: RevokeBody): Promise<Outcome> {
  return post(token, "/api/revoke", body);
}

/** Asks the server to sign an answer to a held message (recorded in the seat's journal). */
export function gate(token: string, body: GateBody): Promise<Outcome> {
  return post(token, "/api/gate", body);
}

/** Asks the server to sign an answer to one of the owner's seats' questions. */
export function answer(token: string, body: AnswerBody): Promise<Outcome> {
  return post(token, "/api/answer", body);
}

/** Asks the server to sign an instruction to one of the owner's seats. */
export function instruct(token: string, body: InstructBody): Promise<Outcome> {
  return post(token, "/api/instruct", body);
}

/** Asks the server to sign a room's deal (the owner's seat in it records the signature). */
export function deal(token: string, body: DealBody): Promise<Outcome> {
  return post(token, "/api/deal", body);
}

/** Asks the server to open or enter the room of one of the owner's matches (as `trestle market room`). */
export function enterRoom(token: string, body: MarketRoomBody): Promise<Outcome> {
  return post(token, "/api/market-room", body);
}

/** Asks the server to reconcile the owner's allowance in a market with its rooms' ledgers. */
export function reconcile(token: string, body: ReconcileBody): Promise<Outcome> {
  return post(token, "/api/reconcile", body);
}

async function post(
  token: string,
  path: string,
  body:
    | ApproveBody
    | ControlBody
    | RevokeBody
    | GateBody
    | AnswerBody
    | InstructBody
    | DealBody
    | MarketRoomBody
    | ReconcileBody,
): Promise<Outcome> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: token },
      body: JSON.stringify(body),
    });
    if (!response.ok) return { ok: false, message: await errorText(response) };
    const result = (await response.json()) as ActionResult | GateResult | LoopResult;
    return { ok: true, message: result.message };
  } catch (error) {
    return {
      ok: false,
      message: `the window's server cannot be reached (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** A decision as the server shows it, or why not. */
export type DecisionResult = { ok: true; view: DecisionViewWire } | { ok: false; message: string };

/** Reads the one decision `credential` names. */
export function decisionView(credential: string): Promise<DecisionResult> {
  return decisionCall(credential, { method: "GET" });
}

/** Answers the one decision `credential` names: approve asks the server to sign it, decline ends it unsigned. */
export function decide(credential: string, verdict: "approve" | "decline"): Promise<DecisionResult> {
  return decisionCall(credential, { method: "POST", body: JSON.stringify({ verdict }) });
}

async function decisionCall(
  credential: string,
  init: { method: "GET" | "POST"; body?: string },
): Promise<DecisionResult> {
  try {
    const response = await fetch("/api/decision", {
      ...init,
      headers: { "content-type": "application/json", [DECISION_HEADER]: credential },
    });
    if (!response.ok) return { ok: false, message: await errorText(response) };
    return { ok: true, view: (await response.json()) as DecisionViewWire };
  } catch (error) {
    return {
      ok: false,
      message: `the window's server cannot be reached (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** The error envelope's code and message, or the status. */
async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    return `${error.code}: ${error.message}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}
