/**
 * Refusing a WebSocket upgrade over a rate limit or a cap (docs/SPEC.md §6.3): the socket is
 * accepted only to be told why, one `error` frame (E_RATE_LIMITED with `details.retry_after_ms`),
 * then closed with 4429, which clients take as "reconnect after that wait". An upgrade to a deleted
 * table is refused the same way (E_TABLE_DELETED, 4410). An HTTP 429 or 410 would do the same for
 * some clients, but a browser's WebSocket never shows its status or headers.
 */
import { retryAfterOf, waitText } from "../../src/protocol/limits/rate-limited.js";
import { wsCloseCodeOf, type TrestleError } from "../../src/protocol/errors.js";
import type { ServerFrame } from "../../src/protocol/schemas/ws.js";
import { toTrestleError } from "../result.js";

/** Tells an open socket it is over a limit and closes it: the error frame, then close 4000 + status (4429 with the wait in its reason). */
export function closeOverLimit(ws: WebSocket, refusal: TrestleError): void {
  const error = toTrestleError(refusal);
  const frame: ServerFrame = { type: "error", error: error.toEnvelope().error };
  try {
    ws.send(JSON.stringify(frame));
    ws.close(wsCloseCodeOf(error.code), closeReason(error));
  } catch {
    // Already closed by its client.
  }
}

/** A 101 answer whose socket carries only the refusal (`closeOverLimit`); nothing is kept of it. */
export function refusedUpgrade(error: TrestleError): Response {
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  closeOverLimit(server, error);
  return new Response(null, { status: 101, webSocket: pair[0] });
}

function closeReason(error: TrestleError): string {
  const wait = retryAfterOf(error);
  return wait === null ? error.code : `rate limited; retry in ${waitText(wait)}`;
}
