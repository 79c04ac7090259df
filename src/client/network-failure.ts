/**
 * How a request that got no answer fails (src/client/http.ts): E_NETWORK naming the relay and the
 * cause, wrapped as ConnectionClosed when the connection was closed under it before any answer, the
 * one failure a GET is sent again for (decision 0526).
 */
import { TrestleError } from "../protocol/index.js";

/**
 * A request whose connection the relay had closed before any answer: a kept-alive connection the
 * relay dropped as idle while this process was too busy to notice (undici "other side closed").
 * A GET is sent again once at once, on a new connection; a signed POST never is; `refusal` is what
 * the caller is told otherwise.
 */
export class ConnectionClosed extends Error {
  constructor(readonly refusal: TrestleError) {
    super(refusal.message);
  }
}

/** What fetch's `error` for a request to the relay at `relay` is told as: E_NETWORK, as ConnectionClosed when the connection closed before any answer. */
export function networkFailure(error: unknown, relay: string): TrestleError | ConnectionClosed {
  const refusal = new TrestleError("E_NETWORK", `cannot reach the relay at ${relay}: ${causeOf(error)}`);
  return closedBeforeAnswer(error) ? new ConnectionClosed(refusal) : refusal;
}

/** Whether `error` from fetch is the connection being closed under the request, before any answer (undici's socket error, or a reset). */
function closedBeforeAnswer(error: unknown): boolean {
  const cause = error instanceof Error ? (error as { cause?: { code?: unknown } }).cause : undefined;
  return cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET";
}

/** The words for why fetch failed: a timeout, else the underlying cause's message. */
function causeOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "timed out";
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return error.message;
  }
  return String(error);
}
