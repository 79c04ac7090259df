/**
 * The outcome of one delivery attempt to a chat platform, classified from the HTTP answer:
 * delivered, or failed with a reason, whether a later retry may help, and whether the platform may
 * have taken the message anyway (a 5xx, or no answer at all: the next send is then a resend).
 * LINE's monthly quota 429 is told apart from an ordinary rate limit by its documented message,
 * and is not retried.
 */
import type { FailureReason } from "../protocol/schemas/owner.js";

/** How an attempt ended. */
export type DeliveryResult =
  | { ok: true; status: number }
  | {
      ok: false;
      status: number | null;
      reason: FailureReason;
      detail: string;
      retry: boolean;
      retryAfterMs?: number;
      maybeDelivered: boolean;
    };

/** How long one send waits for the platform's answer before it counts as a network failure. */
export const SEND_TIMEOUT_MS = 10_000;

/** Longest failure detail kept (the platform's own description, cut). */
export const DETAIL_CHARS = 200;

/** A failed result for an HTTP status, with the platform's description and optional retry hint. */
export function failureOf(status: number, detail: string, retryAfterMs?: number): DeliveryResult {
  const cut = detail.slice(0, DETAIL_CHARS);
  const base = { ok: false as const, status, detail: cut, maybeDelivered: status >= 500 };
  if (status === 429)
    return { ...base, reason: "rate_limited", retry: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status === 401) return { ...base, reason: "unauthorized", retry: false };
  if (status === 403) return { ...base, reason: "blocked", retry: false };
  if (status >= 500) return { ...base, reason: "server_error", retry: true };
  return { ...base, reason: "bad_request", retry: false };
}

/** A failure saying the bot can no longer post to the chat: it was removed from it, or it is gone (`removed`), or a group moved to a new id (`migrated`, the new id in `detail`). Final: never retried. */
export function goneFailure(status: number, reason: "removed" | "migrated", detail: string): DeliveryResult {
  return { ok: false, status, reason, detail: detail.slice(0, DETAIL_CHARS), retry: false, maybeDelivered: false };
}

/** A failure before any HTTP answer (DNS, connection reset, no answer within SEND_TIMEOUT_MS); the request may have reached the platform. */
export function networkFailure(error: unknown): DeliveryResult {
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  const detail = timedOut ? "no answer in time" : String(error instanceof Error ? error.message : error);
  return {
    ok: false,
    status: null,
    reason: "network",
    detail: detail.slice(0, DETAIL_CHARS),
    retry: true,
    maybeDelivered: true,
  };
}

/**
 * `result` with every one of `secrets` cut out of its detail. A bot token can sit in the request
 * URL (Telegram's /bot<token>/), which a fetch error or a proxy's error page repeats; the detail is
 * shown to owners (GET /owners/:key/channels), who must never see the relay's credentials.
 */
export function withoutSecrets(result: DeliveryResult, secrets: readonly (string | undefined)[]): DeliveryResult {
  if (result.ok) return result;
  let detail = result.detail;
  for (const secret of secrets) if (secret) detail = detail.split(secret).join("<secret>");
  return detail === result.detail ? result : { ...result, detail };
}

/** A platform this relay has no credentials for. */
export function notConfigured(what: string): DeliveryResult {
  return {
    ok: false,
    status: null,
    reason: "not_configured",
    detail: `${what} is not set on this relay`,
    retry: false,
    maybeDelivered: false,
  };
}

/** The response body as text, never throwing. */
export async function bodyText(res: Response): Promise<string> {
  try {
    return await res.text();
  } catch {
    return "";
  }
}

/** Parses JSON text, or undefined. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
