/**
 * The seat loop: `runSeat(handler, options)` keeps a verified socket open for one seat, reads the
 * seat's projection whenever the table moves, and calls the bot's handler when the seat holds
 * the floor (on an open table: whenever another seat wrote something new). Whatever the handler
 * returns is signed and submitted over the socket. Losing a race for the floor (E_NOT_FLOOR, or
 * E_NOT_ALLOWED when the policy moved on) is reported and the loop carries on; the loop ends when
 * the table closes, the signal aborts, or the relay is caught misbehaving (the promise rejects).
 */
import { TrestleError, type ProjectedEntry, type Projection, type SignedHead, type Signer } from "../protocol/index.js";
import type { SeatSubmission, SocketStatus, TableSocketOptions } from "./socket.js";
import type { TableClient } from "./table-client.js";

/** What the handler is given: the latest prefix and floor, with every entry since its last call. */
export interface SeatTurn {
  projection: Projection;
  /** `floor`: this seat holds the floor; `open`: an open table moved. */
  reason: "floor" | "open";
}

/** What a handler returns: an entry to write, or nothing (stay silent). */
export type SeatAction = SeatSubmission | null | undefined;

/** The bot. It is never called again before its previous call finished. */
export type SeatHandler = (turn: SeatTurn) => SeatAction | Promise<SeatAction>;

/** Progress reported by the loop. */
export type SeatEvent =
  | { type: "status"; status: SocketStatus }
  | { type: "turn"; reason: SeatTurn["reason"]; cursor: number }
  | { type: "wrote"; seq: number; kind: string }
  | { type: "race"; code: string; message: string };

/** Options for runSeat. */
export interface RunSeatOptions {
  /** The table (pinned relay key inside). */
  client: TableClient;
  seat: string;
  signer: Signer;
  signal?: AbortSignal;
  onEvent?(event: SeatEvent): void;
  /** Socket transport overrides (connector, backoff, jitter source, ping interval). */
  socket?: Partial<Pick<TableSocketOptions, "connect" | "backoff" | "random" | "pingMs">>;
}

/** How the loop ended. */
export interface SeatRun {
  reason: "closed" | "aborted";
  /** The table's close reason (docs/SPEC.md §5.4) when it closed. */
  closed: string | null;
  cursor: number;
  head: SignedHead | null;
}

const RACES = new Set(["E_NOT_FLOOR", "E_NOT_ALLOWED"]);

/** Runs `handler` for one seat until the table closes or `signal` aborts. */
export async function runSeat(handler: SeatHandler, options: RunSeatOptions): Promise<SeatRun> {
  const { client, seat, signer } = options;
  const reader = { signer, as: { seat } };
  const emit = (event: SeatEvent) => options.onEvent?.(event);
  let fetched = 0;
  let calledAt = -1;
  let unseen: ProjectedEntry[] = [];
  let busy = false;
  let dirty = false;
  let done: ((run: SeatRun) => void) | null = null;
  let failed: ((error: unknown) => void) | null = null;
  const result = new Promise<SeatRun>((resolve, reject) => ((done = resolve), (failed = reject)));

  const socket = client.socket({
    ...options.socket,
    seat,
    signer,
    handlers: { onEntries: () => kick(), onStatus: (status) => emit({ type: "status", status }) },
  });

  const finish = (run: Omit<SeatRun, "cursor" | "head">) => {
    socket.close();
    done?.({ ...run, cursor: fetched, head: client.tracker.held });
  };

  const tick = async (): Promise<void> => {
    // The head it was read at is checked by the client; the bot gets the projection alone (§7).
    const { head: _checked, ...projection } = await client.projection(reader, fetched);
    fetched = projection.cursor;
    unseen = [...unseen, ...projection.tail];
    if (projection.closed !== null) return finish({ reason: "closed", closed: projection.closed });
    const reason = turnReason(projection, seat, unseen, calledAt);
    if (!reason) return;
    calledAt = fetched;
    emit({ type: "turn", reason, cursor: fetched });
    const action = await handler({ projection: { ...projection, tail: unseen }, reason });
    unseen = [];
    if (!action) return;
    try {
      const { seq } = await socket.submit(action);
      emit({ type: "wrote", seq, kind: action.kind });
    } catch (error) {
      if (error instanceof TrestleError && RACES.has(error.code))
        return emit({ type: "race", code: error.code, message: error.message });
      if (error instanceof TrestleError && error.code === "E_CLOSED") return kick();
      throw error;
    }
  };

  function kick(): void {
    if (busy) {
      dirty = true;
      return;
    }
    busy = true;
    void (async () => {
      try {
        do {
          dirty = false;
          await tick();
        } while (dirty);
      } catch (error) {
        socket.close();
        failed?.(error);
      } finally {
        busy = false;
      }
    })();
  }

  const abort = () => finish({ reason: "aborted", closed: null });
  if (options.signal?.aborted) return { reason: "aborted", closed: null, cursor: 0, head: client.tracker.held };
  options.signal?.addEventListener("abort", abort, { once: true });
  void socket.ended.then((end) => {
    if (end.reason === "error") failed?.(end.error);
  });
  try {
    await client.head();
    await socket.start().catch((error: unknown) => {
      if (!options.signal?.aborted) throw error;
    });
    if (!options.signal?.aborted) kick();
    return await result;
  } finally {
    options.signal?.removeEventListener("abort", abort);
    socket.close();
  }
}

/** Why the handler should be called now, or null: it holds the floor with something new since its last call, or an open table moved. */
function turnReason(
  projection: Projection,
  seat: string,
  unseen: readonly ProjectedEntry[],
  calledAt: number,
): SeatTurn["reason"] | null {
  if (projection.floor.yours && projection.cursor > calledAt) return "floor";
  if (projection.prefix.rules.topology.kind !== "open") return null;
  if (calledAt < 0) return "open";
  return unseen.some((e) => e.kind !== "system" && e.seat !== seat) ? "open" : null;
}
