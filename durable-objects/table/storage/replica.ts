/**
 * A table this relay holds as a read-only replica (docs/SPEC.md §8.4): a mirror of a table another
 * relay holds, or an import on its way in. This is the replica's own storage: the heads it was fed
 * go into `kept_heads`, which after a custody change keep the past relay's signatures; the
 * evidence of a fork and the mirror's newest refusals are kept beside them; the `replica` meta row
 * marks the table read-only until custody passes to this relay (writing/custody.ts). The pages it
 * is fed are judged in replica-page.ts.
 */
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import {
  MIRROR_REFUSALS_KEPT,
  MirrorEvidenceSchema,
  MirrorRefusalSchema,
  type MirrorEvidence,
  type MirrorRefusal,
} from "../../../src/protocol/schemas/replica.js";
import { SignedHeadSchema } from "../../../src/protocol/schemas/head.js";
import { ensureTable, hasSchema, hasTable } from "./schema.js";

const REPLICA_KEY = "replica";

/** The replica's own storage: whether the table is read-only here, the heads it was fed, the evidence it keeps. */
export class Replica {
  private flag: boolean;

  constructor(private readonly sql: SqlStorage) {
    this.flag = hasSchema(sql) && sql.exec("SELECT 1 FROM meta WHERE key = ?", REPLICA_KEY).toArray().length > 0;
  }

  /** Whether the table is a read-only mirror here (fed, not written; custody is elsewhere). */
  get mirror(): boolean {
    return this.flag;
  }

  /** The newest head kept (for a mirror: the head over its last entry), or null. */
  newest(): SignedHead | null {
    if (!hasTable(this.sql, "kept_heads")) return null;
    const row = this.sql.exec("SELECT head FROM kept_heads ORDER BY seq DESC LIMIT 1").toArray()[0];
    return row ? SignedHeadSchema.parse(JSON.parse(String(row.head))) : null;
  }

  /** Every head kept, by seq: signatures of the relays that held the table before (or of the one a mirror follows). */
  heads(): SignedHead[] {
    if (!hasTable(this.sql, "kept_heads")) return [];
    return this.sql
      .exec("SELECT head FROM kept_heads ORDER BY seq")
      .toArray()
      .map((row) => SignedHeadSchema.parse(JSON.parse(String(row.head))));
  }

  /** The evidence kept against the relay this mirror follows, oldest first. */
  evidence(): MirrorEvidence[] {
    if (!hasTable(this.sql, "mirror_evidence")) return [];
    return this.sql
      .exec("SELECT body FROM mirror_evidence ORDER BY id")
      .toArray()
      .map((row) => MirrorEvidenceSchema.parse(JSON.parse(String(row.body))));
  }

  /** The newest pages refused as not verifying, oldest first (at most MIRROR_REFUSALS_KEPT). */
  refusals(): MirrorRefusal[] {
    if (!hasTable(this.sql, "mirror_refusals")) return [];
    return this.sql
      .exec("SELECT body FROM mirror_refusals ORDER BY id")
      .toArray()
      .map((row) => MirrorRefusalSchema.parse(JSON.parse(String(row.body))));
  }

  /** Records `refusal` and drops all but the newest MIRROR_REFUSALS_KEPT; synchronous. */
  refused(refusal: MirrorRefusal): void {
    ensureTable(this.sql, "mirror_refusals");
    this.sql.exec("INSERT INTO mirror_refusals (body) VALUES (?)", JSON.stringify(refusal));
    this.sql.exec(
      "DELETE FROM mirror_refusals WHERE id NOT IN (SELECT id FROM mirror_refusals ORDER BY id DESC LIMIT ?)",
      MIRROR_REFUSALS_KEPT,
    );
  }

  /** Ends read-only mode: custody passed to this relay. Synchronous, so it commits with the custody entry written just before. */
  release(): void {
    this.sql.exec("DELETE FROM meta WHERE key = ?", REPLICA_KEY);
    this.flag = false;
  }

  /** Keeps `evidence`; synchronous. */
  keep(evidence: MirrorEvidence): void {
    ensureTable(this.sql, "mirror_evidence");
    this.sql.exec("INSERT INTO mirror_evidence (body) VALUES (?)", JSON.stringify(evidence));
  }

  /**
   * Keeps `head` (over `bytes` more of export lines than the previous one), inside the transaction
   * that appends its page, and marks the table read-only. The previous head is dropped when the one
   * before it and this one are close enough (half a page) that no page needs it between them.
   */
  record(head: SignedHead, bytes: number): void {
    ensureTable(this.sql, "kept_heads");
    const [previous, before] = this.sql.exec("SELECT seq, bytes FROM kept_heads ORDER BY seq DESC LIMIT 2").toArray();
    const total = Number(previous?.bytes ?? 0) + bytes;
    if (previous && total - Number(before?.bytes ?? 0) <= HALF_PAGE)
      this.sql.exec("DELETE FROM kept_heads WHERE seq = ?", previous.seq);
    this.sql.exec(
      "INSERT OR REPLACE INTO kept_heads (seq, head, bytes) VALUES (?, ?, ?)",
      head.seq,
      JSON.stringify(head),
      total,
    );
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", REPLICA_KEY);
    this.flag = true;
  }
}

const HALF_PAGE = 512 * 1024;
