/**
 * LINE deliveries within a bounded number of subrequests (docs/SPEC.md §11.5). LINE batches many
 * events into one webhook and each needs its own reply call (one reply token per event), while a
 * free-plan invocation may make 50 subrequests
 * (https://developers.cloudflare.com/workers/platform/limits/#subrequests). So one invocation
 * answers at most LINE_EVENTS_PER_INVOCATION events: the webhook the first ones; the rest wait in
 * a queue in the chat directory's SQLite, and each run of its alarm answers as many again.
 */
import { z } from "zod";
import { LineEventSchema, parseLineEvent, replyLine, type LineEvent } from "../../src/chat/line.js";
import type { Env } from "../env.js";
import { handleInbound, type Directory } from "./handle.js";

/** Events one invocation answers: at most this many LINE API calls (one reply each), and nothing else leaves it. */
export const LINE_EVENTS_PER_INVOCATION = 10;

/** Events as the webhook hands them to the queue. */
export const LineEventsSchema = z.array(LineEventSchema).max(100);

/** Does what one LINE event asks and replies with its reply token: at most one LINE API call. */
export async function answerLineEvent(env: Env, event: LineEvent, dir?: Directory): Promise<void> {
  const reply = await handleInbound(env, parseLineEvent(event), dir);
  if (reply === null || !event.replyToken) return;
  const sent = await replyLine(env, event.replyToken, reply);
  if (!sent.ok) console.error("LINE reply failed", sent.status, sent.reason);
}

/** The LINE events waiting for the directory's alarm, oldest first; each webhook event id once. */
export class LineQueue {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues `events` (an id already queued is ignored); returns how many were added. */
  add(events: readonly LineEvent[], now: number): number {
    let added = 0;
    for (const event of events) {
      added += this.sql.exec("INSERT OR IGNORE INTO line_queue (id, event, at) VALUES (?, ?, ?)", event.webhookEventId, JSON.stringify(event), now).rowsWritten;
    }
    return added;
  }

  /** The oldest `limit` events with their queue positions. */
  take(limit: number): { seq: number; event: LineEvent }[] {
    return this.sql
      .exec("SELECT seq, event FROM line_queue ORDER BY seq LIMIT ?", limit)
      .toArray()
      .map((row) => ({ seq: Number(row.seq), event: LineEventSchema.parse(JSON.parse(String(row.event))) }));
  }

  /** Removes an answered event. */
  done(seq: number): void {
    this.sql.exec("DELETE FROM line_queue WHERE seq = ?", seq);
  }

  /** Whether events are still waiting. */
  waiting(): boolean {
    return this.sql.exec("SELECT 1 FROM line_queue LIMIT 1").toArray().length > 0;
  }
}
