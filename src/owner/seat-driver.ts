/**
 * A seat driven by an agent outside trestle (docs/AGENTS.md): the library's seat loop
 * (src/client/seat.ts) calls the agent whenever the seat holds the floor (or an open table moved),
 * telling it what its owner's mandate lets it do (agent-view.ts) and how its last entry was refused,
 * and the agent's entry is written through the owner-side guards as every write of the CLI and the
 * MCP server is (guarded-seat.ts, when the seat has a mandate or the home holds the room key, and
 * always for a commitment), so mandates and the gate apply. An agent that fails its turn (E_AGENT,
 * or an owner question nobody can answer) or whose entry is refused has written nothing; the
 * refusal goes to the seat's journal and to `onEvent`; a refused entry gets the agent up to
 * REFUSED_RETRIES more turns at once, told of it; then the seat passes when it holds the
 * floor (so the table moves on) or writes nothing on an open table. A relay caught misbehaving
 * ends the run (the promise rejects), as in runSeat.
 */
import { existsSync } from "node:fs";
import {
  runSeat,
  type Clock,
  type RunSeatOptions,
  type SeatEvent,
  type SeatRun,
  type TableClient,
} from "../client/index.js";
import { systemClock } from "../client/random.js";
import { TrestleError, type Signer, type Submission } from "../protocol/index.js";
import { agentTurn, passEntry, replyEntry, type AgentReply, type AgentTurn, type TurnRefusal } from "./agent-turn.js";
import { mandateLines } from "./agent-view.js";
import { isCommitment } from "./commitments.js";
import { GuardedSeat } from "./guarded-seat.js";
import { openedProjection, writesGuarded } from "./room-key.js";
import { resolveRef, type RoomRef } from "./room-view.js";

/** An agent behind a seat. */
export interface SeatAgent {
  readonly driver: "exec" | "a2a";
  /** The agent's answer to this turn; throws E_AGENT when the turn failed. `signal` aborts when the seat stops. */
  turn(turn: AgentTurn, signal: AbortSignal): Promise<AgentReply>;
}

/** Progress of a driven seat: the loop's events, each entry written, each refused turn and what the seat did then. */
export type DriverEvent =
  | SeatEvent
  | { type: "written"; seq: number; kind: string }
  | { type: "refused"; code: string; reason: string; message: string; then: "retry" | "pass" | "wait" };

/** What driveSeat needs. */
export interface DriveSeatOptions {
  client: TableClient;
  seat: string;
  signer: Signer;
  /** The trestle home holding the seat's mandate, room key and journal. */
  home: string;
  clock?: Clock;
  signal?: AbortSignal;
  onEvent?(event: DriverEvent): void;
  socket?: RunSeatOptions["socket"];
}

/**
 * How many more turns an agent is given at once, each told of the refusal, after an entry it gave
 * was refused (by a guard, the gate or the relay; not a turn that failed with E_AGENT): on an open
 * table nothing else would give it a turn while the other side waits for its answer.
 */
const REFUSED_RETRIES = 2;

/** Codes that mean the relay or this machine cannot be trusted: they end the run instead of becoming a pass. */
const FATAL = new Set(["E_FORK", "E_REFUTED", "E_BAD_RESPONSE", "E_RELAY_KEY", "E_KEY_FILE"]);

/** Seats `agent` until the table closes or `signal` aborts. */
export async function driveSeat(agent: SeatAgent, options: DriveSeatOptions): Promise<SeatRun> {
  const { client, seat, signer, home } = options;
  const emit = (event: DriverEvent) => options.onEvent?.(event);
  const guarded = new GuardedSeat({ client, seat, signer, home, clock: options.clock ?? systemClock });
  const stop = new AbortController();
  const aborted = () => stop.abort();
  options.signal?.addEventListener("abort", aborted, { once: true });

  const resolve = async (ref: string | number, what: RoomRef) => resolveRef(await guarded.transcript(), ref, what);
  const write = async (entry: Submission): Promise<void> => {
    const sent =
      writesGuarded(home, client.table, seat) || isCommitment(entry)
        ? await guarded.send(entry)
        : await client.submit(signer, seat, entry);
    emit({ type: "written", seq: sent.seq, kind: entry.kind });
  };

  /** The refusal the agent is told of at its next turn. */
  let lastRefusal: TurnRefusal | undefined;

  /** Records a failed or refused turn, to be told to the agent at its next turn (`retry`: at once); else, holding the floor, passes (a pass that is itself refused is only reported). */
  const refused = async (error: TrestleError, turn: AgentTurn, retry: boolean): Promise<void> => {
    const then = retry ? "retry" : turn.reason === "floor" ? "pass" : "wait";
    const why = String(error.details?.reason ?? error.code);
    lastRefusal = { code: error.code, reason: why, message: error.message };
    guarded.journal.append({
      type: "agent_refusal",
      driver: agent.driver,
      reason: why.slice(0, 64),
      message: `${error.code}: ${error.message}`.slice(0, 2000),
      then,
    });
    emit({ type: "refused", code: error.code, reason: why, message: error.message, then });
    if (then !== "pass") return;
    try {
      await write(passEntry(turn));
    } catch (failed) {
      if (!(failed instanceof TrestleError) || FATAL.has(failed.code)) throw failed;
      emit({
        type: "refused",
        code: failed.code,
        reason: String(failed.details?.reason ?? failed.code),
        message: `the pass after a failed turn was refused too: ${failed.message}`,
        then: "wait",
      });
    }
  };

  /** What the seat's mandate lets the agent do (agent-view.ts), read and verified now; nothing without a mandate file. */
  const toldMandate = async (): Promise<string[]> =>
    existsSync(guarded.files.mandate) ? mandateLines(await guarded.mandate()) : [];

  /** One turn of the agent's, told `refusal` when its last answer was refused; the entry it gave is written, or the error that stopped it thrown. */
  const answer = async (turn: AgentTurn): Promise<void> => {
    const entry = await replyEntry(turn, await agent.turn(turn, stop.signal), resolve);
    if (entry !== null) await write(entry);
  };

  const handler = async ({
    projection,
    reason,
  }: {
    projection: AgentTurn["projection"];
    reason: AgentTurn["reason"];
  }): Promise<null> => {
    const opened = await openedProjection(home, client.table, projection);
    let turn = agentTurn(seat, reason, opened);
    for (let again = 0; ; again += 1) {
      try {
        turn = agentTurn(seat, reason, opened, {
          mandate: await toldMandate(),
          ...(lastRefusal ? { refused: lastRefusal } : {}),
        });
        lastRefusal = undefined;
        await answer(turn);
        return null;
      } catch (error) {
        if (!(error instanceof TrestleError) || FATAL.has(error.code)) throw error;
        if (stop.signal.aborted) return null;
        if (error.code === "E_NOT_FLOOR" || error.code === "E_CLOSED") {
          emit({ type: "race", code: error.code, message: error.message });
          return null;
        }
        const retry = error.code !== "E_AGENT" && again < REFUSED_RETRIES;
        await refused(error, turn, retry);
        if (!retry) return null;
      }
    }
  };

  try {
    return await runSeat(handler, {
      client,
      seat,
      signer,
      signal: stop.signal,
      onEvent: emit,
      ...(options.socket ? { socket: options.socket } : {}),
    });
  } finally {
    options.signal?.removeEventListener("abort", aborted);
    stop.abort();
  }
}
