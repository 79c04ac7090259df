/**
 * The ledger in DO SQLite: one row per entry, `seq INTEGER PRIMARY KEY` without gaps, and nothing
 * else written per entry (one billed row): the nonce key of each authored or join entry (each
 * sub-table opening and result by the child's id) is a plain column, looked up in a map kept in
 * memory and rebuilt from that column on the first write after a wake, so a retried write finds
 * its first seq. Every CHECKPOINT_EVERY entries the row of the entry that crosses the mark also
 * carries the folded state (checkpoint.ts), a cache that makes waking cost O(CHECKPOINT_EVERY).
 * The original body of every entry the relay truncated is kept beside it (the seat signed its
 * hash; verifiers check the cut against it). The owner notifications a batch causes ride in its
 * last row's `notices` column (notify.ts). Rows are written in one transaction per admitted batch,
 * with whatever else must commit with them (the Merkle tree's tiles they fill, merkle-tree.ts);
 * never updated or deleted.
 */
import { chainEntry, GENESIS_LINK } from "../../../src/protocol/ledger/chain.js";
import type { Entry, UnchainedEntry } from "../../../src/protocol/schemas/entry.js";
import { nonceKeyOf } from "../../../src/protocol/signing/statements.js";
import { MerkleTree } from "./merkle-tree.js";
import { ensureTable, hasSchema, hasTable, migrate } from "./schema.js";

/** Every this many entries, the row of the entry that crosses the mark carries the state after it (checkpoint.ts says what it holds). */
export const CHECKPOINT_EVERY = 256;

/** Links of this many of the newest entries stay in memory, for writers' `known_head` checks. */
const RECENT_LINKS = 4096;

/** A row's checkpoint text and its seq. */
export interface StoredCheckpoint {
  seq: number;
  text: string;
}

/** SQLite-backed, append-only entry store for one table. */
export class Ledger {
  private lastLink = GENESIS_LINK;
  private lastSeq = 0;
  /** Nonce key -> seq of every entry that has one; null until the first lookup or write after a wake. */
  private nonces: Map<string, number> | null = null;
  private readonly recentLinks = new Map<number, string>();
  /** The Merkle tree over the entries' leaves (docs/SPEC.md §12): its full tiles are written with the entries that fill them. */
  readonly tree: MerkleTree;

  constructor(private readonly storage: DurableObjectStorage) {
    this.tree = new MerkleTree(storage.sql, () => this.lastSeq);
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
   * `alongside` with the chained entries inside the same transaction. The batch's last row carries
   * `notices(entries)` (the owner notifications the batch causes, notify.ts), and, when the batch
   * crosses a multiple of CHECKPOINT_EVERY, `checkpoint()` (the state after the batch). Seqs must follow on.
   */
  append(
    batch: readonly UnchainedEntry[],
    options: {
      originals?: ReadonlyMap<number, string>;
      alongside?: (entries: readonly Entry[]) => void;
      notices?: (entries: readonly Entry[]) => string | null;
      checkpoint?: () => string;
    } = {},
  ): Entry[] {
    const sql = this.storage.sql;
    const nonces = this.nonceMap();
    let link = this.lastLink;
    const chained = batch.map((e) => {
      const entry = chainEntry(e, link);
      link = entry.link;
      return entry;
    });
    const last = chained[chained.length - 1];
    const marked =
      last !== undefined && Math.floor(last.seq / CHECKPOINT_EVERY) > Math.floor(this.lastSeq / CHECKPOINT_EVERY);
    const checkpoint = marked ? options.checkpoint?.() : undefined;
    const tails = this.storage.transactionSync(() => {
      if (this.lastSeq === 0) migrate(sql);
      const notices = options.notices?.(chained) ?? null;
      for (const entry of chained) {
        const [text, noticed] = entry === last ? [checkpoint ?? null, notices] : [null, null];
        sql.exec(
          "INSERT INTO entries (seq, nonce_key, entry, checkpoint, notices) VALUES (?, ?, ?, ?, ?)",
          entry.seq,
          nonceKeyOf(entry),
          JSON.stringify(entry),
          text,
          noticed,
        );
        const original = options.originals?.get(entry.seq);
        if (original !== undefined) ensureTable(sql, "originals");
        if (original !== undefined) sql.exec("INSERT INTO originals (seq, body) VALUES (?, ?)", entry.seq, original);
      }
      options.alongside?.(chained);
      return this.tree.grow(chained.map((entry) => entry.leaf));
    });
    this.tree.adopt(tails);
    for (const entry of chained) {
      const key = nonceKeyOf(entry);
      if (key !== null) nonces.set(key, entry.seq);
      this.remember(entry.seq, entry.link);
    }
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

  /** Every entry, in order (exports, and a wake without a usable checkpoint). */
  all(): Entry[] {
    return this.range(1, this.lastSeq, this.lastSeq);
  }

  /** The newest checkpoint a row carries, or null: read from the end, so at most CHECKPOINT_EVERY rows. */
  latestCheckpoint(): StoredCheckpoint | null {
    if (this.lastSeq === 0) return null;
    const row = this.storage.sql
      .exec("SELECT seq, checkpoint FROM entries WHERE checkpoint IS NOT NULL ORDER BY seq DESC LIMIT 1")
      .toArray()[0];
    return row ? { seq: Number(row.seq), text: String(row.checkpoint) } : null;
  }

  /** Original bodies of truncated entries with seq in [from, to]. */
  originals(from: number, to: number): Map<number, string> {
    const out = new Map<number, string>();
    if (this.lastSeq === 0 || !hasTable(this.storage.sql, "originals")) return out;
    for (const row of this.storage.sql.exec(
      "SELECT seq, body FROM originals WHERE seq >= ? AND seq <= ? ORDER BY seq",
      from,
      to,
    )) {
      out.set(Number(row.seq), String(row.body));
    }
    return out;
  }

  /** The entry recorded under a nonce key, if any (SQLite is read only when there is one). */
  byNonce(nonceKey: string): Entry | undefined {
    const seq = this.nonceMap().get(nonceKey);
    return seq === undefined ? undefined : this.range(seq, seq, 1)[0];
  }

  /** Link after entry `seq`, if it exists (from memory for the newest RECENT_LINKS entries). */
  linkAt(seq: number): string | undefined {
    if (seq < 1 || seq > this.lastSeq) return undefined;
    return this.recentLinks.get(seq) ?? this.range(seq, seq, 1)[0]?.link;
  }

  /** The nonce map, built from the nonce_key column the first time it is needed after a wake. */
  private nonceMap(): Map<string, number> {
    if (this.nonces) return this.nonces;
    const nonces = new Map<string, number>();
    if (this.lastSeq > 0) {
      for (const row of this.storage.sql.exec("SELECT seq, nonce_key FROM entries WHERE nonce_key IS NOT NULL")) {
        nonces.set(String(row.nonce_key), Number(row.seq));
      }
    }
    this.nonces = nonces;
    return nonces;
  }

  private remember(seq: number, link: string): void {
    this.recentLinks.set(seq, link);
    this.recentLinks.delete(seq - RECENT_LINKS);
  }
}
