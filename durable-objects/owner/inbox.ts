/**
 * Events a table sent this owner, each stored once by its id (a repeated event is ignored; the
 * newest 1000 are kept, and any the outbox has yet to send) while the owner has a channel that
 * reads them, and the owner's table list every event maintains (for the `tables` and `status` commands), with who holds which pause as the
 * newest pause or lift event said.
 */
import { z } from "zod";
import type { Outgoing } from "../../src/chat/render.js";
import { approvalRef } from "../../src/chat/callback.js";
import { questionRef } from "../../src/chat/question.js";
import { PauseHolderSchema, type PauseHolder } from "../../src/protocol/schemas/control.js";
import type { ApprovalNeeded, OwnerQuestionNotice } from "../../src/protocol/schemas/notify.js";

/** A table as this owner last heard of it; `pauses` is empty when no event named the holders. */
export interface OwnerTable {
  id: string;
  topic: string;
  state: "open" | "paused" | "closed";
  pauses: PauseHolder[];
}

const PausesSchema = z.array(PauseHolderSchema);

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
    // Approval requests and questions are named by a ref their chat buttons and commands carry back (callback.ts, question.ts).
    const ref =
      event.type === "approval_needed"
        ? approvalRef(this.ownerKey, event.id)
        : event.type === "owner_question"
          ? questionRef(this.ownerKey, event.id)
          : null;
    const inserted =
      this.sql.exec(
        "INSERT OR IGNORE INTO events (id, type, table_id, ref, body, received_at) VALUES (?, ?, ?, ?, ?, ?)",
        event.id,
        event.type,
        table,
        ref,
        JSON.stringify(event),
        now,
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

  /**
   * Updates the table list from `event` without storing it: for an owner with no channel, where
   * nothing would read the stored event (no outbox row, no message whose tap or ref names it; decision 0533).
   */
  heard(event: Outgoing, now: number): void {
    if ("table" in event) this.track(event, now);
  }

  /** Whether an unbinding of `group` on `platform` later than entry `seq` is stored (a market's group audience, group-audience.ts). */
  groupUnboundAfter(platform: string, group: string, seq: number): boolean {
    return this.sql
      .exec("SELECT body FROM events WHERE type = 'group_unbound'")
      .toArray()
      .some((row) => {
        const event = JSON.parse(String(row.body)) as Extract<Outgoing, { type: "group_unbound" }>;
        return event.platform === platform && event.group === group && event.seq > seq;
      });
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

  /** The question a button's or an `/answer` command's ref names, if this owner received it. */
  question(ref: string): OwnerQuestionNotice | undefined {
    const row = this.sql.exec("SELECT body FROM events WHERE ref = ? AND type = 'owner_question'", ref).toArray()[0];
    return row ? (JSON.parse(String(row.body)) as OwnerQuestionNotice) : undefined;
  }

  /** The owner's tables, most recently changed (first heard of, or its topic, state or pauses changed) first. */
  tables(): OwnerTable[] {
    return this.sql
      .exec("SELECT id, topic, state, pauses FROM tables ORDER BY updated_at DESC, id LIMIT 50")
      .toArray()
      .map((r) => ({
        id: String(r.id),
        topic: String(r.topic),
        state: String(r.state) as OwnerTable["state"],
        pauses: PausesSchema.parse(JSON.parse(String(r.pauses))),
      }));
  }

  /** Updates the table list from `event`; written only when the table is new or its topic, state or pauses change (decision 0533). */
  private track(event: Extract<Outgoing, { table: string }>, now: number): void {
    const { state, pauses } = tableState(event);
    const row = this.sql.exec("SELECT topic, state, pauses FROM tables WHERE id = ?", event.table).toArray()[0];
    const next = {
      state: row === undefined ? (state ?? "open") : row.state === "closed" ? "closed" : (state ?? String(row.state)),
      pauses: pauses === null ? (row === undefined ? "[]" : String(row.pauses)) : JSON.stringify(pauses),
    };
    if (
      row !== undefined &&
      String(row.topic) === event.topic &&
      String(row.state) === next.state &&
      String(row.pauses) === next.pauses
    )
      return;
    this.sql.exec(
      `INSERT INTO tables (id, topic, state, pauses, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET topic = excluded.topic, state = excluded.state, pauses = excluded.pauses, updated_at = excluded.updated_at`,
      event.table,
      event.topic,
      next.state,
      next.pauses,
      now,
    );
  }
}

/**
 * What `event` says about its table: its state (null: unchanged; a new table is open) and the
 * pauses in force (null: unchanged). A lift leaves the table paused while other pauses hold; an
 * older control event without `pauses` says paused or open as it did before pauses were per owner.
 */
function tableState(event: Extract<Outgoing, { table: string }>): {
  state: OwnerTable["state"] | null;
  pauses: PauseHolder[] | null;
} {
  switch (event.type) {
    case "table_closed":
      return { state: "closed", pauses: null };
    case "table_paused":
    case "table_resumed": {
      const pauses = event.pauses ?? (event.type === "table_paused" ? null : []);
      return {
        state: event.type === "table_paused" || (pauses !== null && pauses.length > 0) ? "paused" : "open",
        pauses,
      };
    }
    default:
      return { state: null, pauses: null };
  }
}
