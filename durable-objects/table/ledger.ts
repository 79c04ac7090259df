/**
 * The ledger in DO SQLite: one row per entry, `seq INTEGER PRIMARY KEY` without gaps, each
 * authored or join entry indexed by its nonce (each sub-table opening and result by the child's id)
 * so a retried write finds its first seq, and the
 * original body of every entry the relay truncated (the seat signed its hash; verifiers check the
 * cut against it). Rows are written in one transaction per admitted batch, with whatever else must
 * commit with them (the owner notifications they cause, notify.ts); never updated or deleted.
 */
import { chainEntry, GENESIS_LINK } from "../../src/protocol/chain.js";
import type { Entry, UnchainedEntry } from "../../src/protocol/schemas/entry.js";
import { nonceKeyOf } from "../../src/protocol/statements.js";
import { hasSchema, migrate } from "./schema.js";

/** SQLite-backed, append-only entry store for one table. */
export class Ledger {
  private lastLink = GENESIS_LINK;
  private lastSeq = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
  ) {
    if (hasSchema(storage.sql)) {
      migrate(storage.sql);
      const row = storage.sql.exec("SELECT seq, entry FROM entries ORDER BY seq DESC LIMIT 1").toArray()[0];
      if (row) {
        this.lastSeq = Number(row.seq);
        this.lastLink = (JSON.parse(String(row.entry)) as Entry).link;
      }
    }
  }

  /** Seq of the newest entry (0 when empty). */
  get seq(): number {
    return this.lastSeq;
  }

  /** Link of the newest entry (the genesis link when empty). */
  get link(): string {
    return this.lastLink;
  }

  /**
   * Chains and writes a batch (and the originals of its truncated entries) atomically, running
   * `alongside` with the chained entries inside the same transaction. Seqs must follow on.
   */
  append(batch: readonly UnchainedEntry[], originals: ReadonlyMap<number, string> = new Map(), alongside?: (entries: readonly Entry[]) => void): Entry[] {
    const sql = this.storage.sql;
    let link = this.lastLink;
    const chained = batch.map((e) => {
      const entry = chainEntry(e, link);
      link = entry.link;
      return entry;
    });
    this.storage.transactionSync(() => {
      if (this.lastSeq === 0) migrate(sql);
      for (const entry of chained) {
        sql.exec("INSERT INTO entries (seq, nonce_key, entry) VALUES (?, ?, ?)", entry.seq, nonceKeyOf(entry), JSON.stringify(entry));
        const original = originals.get(entry.seq);
        if (original !== undefined) sql.exec("INSERT INTO originals (seq, body) VALUES (?, ?)", entry.seq, original);
      }
      alongside?.(chained);
    });
    const last = chained[chained.length - 1];
    if (last) {
      this.lastSeq = last.seq;
      this.lastLink = last.link;
    }
    return chained;
  }

  /** Entries with from <= seq <= to, in order, at most `limit`. */
  range(from: number, to: number, limit: number): Entry[] {
    if (this.lastSeq === 0) return [];
    return this.storage.sql
      .exec("SELECT entry FROM entries WHERE seq >= ? AND seq <= ? ORDER BY seq LIMIT ?", from, to, limit)
      .toArray()
      .map((row) => JSON.parse(String(row.entry)) as Entry);
  }

  /** Every entry, in order (used to fold the state on wake). */
  all(): Entry[] {
    return this.range(1, this.lastSeq, this.lastSeq);
  }

  /** Original bodies of truncated entries with seq in [from, to]. */
  originals(from: number, to: number): Map<number, string> {
    const out = new Map<number, string>();
    if (this.lastSeq === 0) return out;
    for (const row of this.storage.sql.exec("SELECT seq, body FROM originals WHERE seq >= ? AND seq <= ? ORDER BY seq", from, to)) {
      out.set(Number(row.seq), String(row.body));
    }
    return out;
  }

  /** The entry recorded under a nonce key, if any. */
  byNonce(nonceKey: string): Entry | undefined {
    if (this.lastSeq === 0) return undefined;
    const row = this.storage.sql.exec("SELECT entry FROM entries WHERE nonce_key = ?", nonceKey).toArray()[0];
    return row ? (JSON.parse(String(row.entry)) as Entry) : undefined;
  }

  /** Link after entry `seq`, if it exists. */
  linkAt(seq: number): string | undefined {
    return this.range(seq, seq, 1)[0]?.link;
  }
}
