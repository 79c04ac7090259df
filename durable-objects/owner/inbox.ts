/**
 * Events a table sent this owner, each stored once by its id (a repeated event is ignored; the
 * newest 1000 are kept, and any the outbox has yet to send), and the owner's table list those
 * events maintain (for the `tables` and `status` commands).
 */
import type { Outgoing } from "../../src/chat/render.js";
import { approvalRef } from "../../src/chat/callback.js";
import type { ApprovalNeeded } from "../../src/protocol/schemas/notify.js";

/** A table as this owner last heard of it. */
export interface OwnerTable {
  id: string;
  topic: string;
  state: "open" | "paused" | "closed";
}

const KEEP_EVENTS = 1000;

/** The events and tables of one OwnerDO. */
export class Inbox {
  constructor(
    private readonly sql: SqlStorage,
    private readonly ownerKey: string,
  ) {}

  /** Stores `event`; false if an event with its id was already stored. Updates the table list. */
  add(event: Outgoing, now: number): boolean {
    const table = "table" in event ? event.table : null;
    const ref = event.type === "approval_needed" ? approvalRef(this.ownerKey, event.id) : null;
    const inserted = this.sql.exec(
      "INSERT OR IGNORE INTO events (id, type, table_id, ref, body, received_at) VALUES (?, ?, ?, ?, ?, ?)",
      event.id, event.type, table, ref, JSON.stringify(event), now,
    ).rowsWritten > 0;
    if (inserted && "table" in event) this.track(event, now);
    // An event the outbox still has to send is kept, however many newer ones arrive: a notice is never dropped unsent.
    if (inserted) {
      this.sql.exec(
        "DELETE FROM events WHERE seq <= (SELECT MAX(seq) FROM events) - ? AND id NOT IN (SELECT event_id FROM outbox WHERE state IN ('queued', 'sending'))",
        KEEP_EVENTS,
      );
    }
    return inserted;
  }

  /** The stored event with `id`. */
  get(id: string): Outgoing | undefined {
    const row = this.sql.exec("SELECT body FROM events WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(String(row.body)) as Outgoing) : undefined;
  }

  /** The approval request a button's ref names, if this owner received it. */
  approval(ref: string): ApprovalNeeded | undefined {
    const row = this.sql.exec("SELECT body FROM events WHERE ref = ? AND type = 'approval_needed'", ref).toArray()[0];
    return row ? (JSON.parse(String(row.body)) as ApprovalNeeded) : undefined;
  }

  /** The owner's tables, most recently changed first. */
  tables(): OwnerTable[] {
    return this.sql
      .exec("SELECT id, topic, state FROM tables ORDER BY updated_at DESC, id LIMIT 50")
      .toArray()
      .map((r) => ({ id: String(r.id), topic: String(r.topic), state: String(r.state) as OwnerTable["state"] }));
  }

  private track(event: Extract<Outgoing, { table: string }>, now: number): void {
    const state = event.type === "table_closed" ? "closed" : event.type === "table_paused" ? "paused" : event.type === "table_resumed" || event.type === "table_opened" ? "open" : null;
    this.sql.exec(
      `INSERT INTO tables (id, topic, state, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET topic = excluded.topic, updated_at = excluded.updated_at,
         state = CASE WHEN tables.state = 'closed' THEN 'closed' WHEN ? IS NULL THEN tables.state ELSE ? END`,
      event.table, event.topic, state ?? "open", now, state, state,
    );
  }
}
