/**
 * Progress notifications for long tool calls (MCP `notifications/progress`): when a client sends a
 * `progressToken` with a call, the server tells it every `everyMs` that the call is still running,
 * and at once whenever a tool says what it is waiting for, so a host that times out quiet calls
 * (and resets the timeout on progress) keeps waiting. `progress` only grows, across the whole
 * process (a call asking its owner runs twice under one token on 2025-11-25, the SDK re-entering
 * it with the answer, and its progress must still grow); there is no `total`. Without a token
 * nothing is ever sent.
 */
import type { Notification } from "@modelcontextprotocol/server";

/** How often a running call reports, by default. */
export const PROGRESS_EVERY_MS = 10_000;

/** The last `progress` value sent by any call of this process. */
let sent = 0;

/** One call's progress reporter. */
export interface Progress {
  /** Says what the call is doing now (sent at once, and repeated by the heartbeat). */
  report(message: string): void;
  /** Ends the heartbeat; nothing is sent after it. */
  stop(): void;
}

/** A reporter for a call named `label` that the client gave `token` (none: a reporter that sends nothing). */
export function startProgress(
  token: string | number | undefined,
  send: (notification: Notification) => Promise<void>,
  options: { label: string; everyMs: number; now: () => number },
): Progress {
  if (token === undefined) return { report: () => undefined, stop: () => undefined };
  const started = options.now();
  let doing = `${options.label} is running`;
  let stopped = false;
  const notify = () => {
    if (stopped) return;
    sent += 1;
    const seconds = Math.round((options.now() - started) / 1000);
    // A client that went away cannot be told; the call's own answer reports what matters.
    send({
      method: "notifications/progress",
      params: { progressToken: token, progress: sent, message: `${doing} (${seconds} s)` },
    }).catch(() => undefined);
  };
  const timer = setInterval(notify, options.everyMs);
  return {
    report(message) {
      doing = message;
      notify();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
