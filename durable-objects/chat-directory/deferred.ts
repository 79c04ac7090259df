/**
 * Webhook events a platform's hook deferred, waiting in the chat directory's SQLite for its alarm
 * (docs/SPEC.md §11.5). A platform that batches many events into one webhook, each needing its own
 * API call (LINE: one reply token per event), answers EVENTS_PER_INVOCATION of them in the webhook,
 * since a free-plan invocation may make 50 subrequests
 * (https://developers.cloudflare.com/workers/platform/limits/#subrequests); each alarm run answers
 * as many again through the platform's `replay`.
 */
import { z } from "zod";
import { ChatPlatformSchema, type ChatPlatform } from "../../src/protocol/schemas/control.js";

/** Events as a webhook hands them over: the platform's id for each (unique per platform) and the event. */
export const DeferredEventsSchema = z
  .array(z.strictObject({ id: z.string().min(1).max(128), event: z.unknown() }))
  .max(100);

/** The deferred events, oldest first; each (platform, id) once. */
export class DeferredQueue {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues `events` of `platform` (one already queued is ignored); returns how many were added. */
  add(platform: ChatPlatform, events: z.infer<typeof DeferredEventsSchema>, now: number): number {
    let added = 0;
    for (const { id, event } of events) {
      added += this.sql.exec(
        "INSERT OR IGNORE INTO deferred (platform, id, event, at) VALUES (?, ?, ?, ?)",
        platform,
        `${platform}:${id}`,
        JSON.stringify(event),
        now,
      ).rowsWritten;
    }
    return added;
  }

  /** The oldest `limit` events with their platforms and queue positions. */
  take(limit: number): { seq: number; platform: ChatPlatform; event: unknown }[] {
    return this.sql
      .exec("SELECT seq, platform, event FROM deferred ORDER BY seq LIMIT ?", limit)
      .toArray()
      .map((row) => ({
        seq: Number(row.seq),
        platform: ChatPlatformSchema.parse(row.platform),
        event: JSON.parse(String(row.event)) as unknown,
      }));
  }

  /** Removes an answered event. */
  done(seq: number): void {
    this.sql.exec("DELETE FROM deferred WHERE seq = ?", seq);
  }

  /** Whether events are still waiting. */
  waiting(): boolean {
    return this.sql.exec("SELECT 1 FROM deferred LIMIT 1").toArray().length > 0;
  }
}
