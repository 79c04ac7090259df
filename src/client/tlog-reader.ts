/**
 * Reading a table's transparency log over HTTP (docs/CLIENT.md, SPEC §12): the relay's checkpoint,
 * opened with the pinned relay key; the tiles a root or proof needs, fetched once each; an entry's
 * self-contained proof file; and the check that a newer checkpoint extends one kept before.
 * Every hash comes from tiles and is checked against the signed root before anything is trusted.
 */
import { bytesEqual } from "../protocol/encoding/bytes.js";
import { TrestleError } from "../protocol/errors.js";
import { toBase64 } from "../protocol/tlog/base64.js";
import { checkpointRoot, type Checkpoint } from "../protocol/tlog/checkpoint.js";
import { ENTRY_PROOF_FORMAT, openCheckpoint, verifyEntryProof, type EntryProof } from "../protocol/tlog/entry-proof.js";
import type { NoteSignature } from "../protocol/tlog/note.js";
import { EntrySchema } from "../protocol/schemas/entry.js";
import {
  consistencyProof,
  consistencyRanges,
  inclusionProof,
  inclusionRanges,
  rangeHash,
  verifyConsistency,
  type HashSource,
  type LeafRange,
} from "../protocol/tlog/proofs.js";
import { tileHashSource, tilePath, tilesForRanges } from "../protocol/tlog/tiles.js";
import type { HttpClient, Reader } from "./http.js";

/** A checkpoint the pinned relay key signed for a table: the note as served, its parts, and the signatures of others on it (witnesses). */
export interface SignedCheckpoint {
  note: string;
  checkpoint: Checkpoint;
  others: readonly NoteSignature[];
}

/** Reads one table's log from a relay whose key the caller pinned (base64url). */
export class TlogReader {
  constructor(
    private readonly http: HttpClient,
    private readonly table: string,
    private readonly relayKey: string,
    /** Who reads the tiles: a private table's need a seat's or owner's signed read. */
    private readonly reader?: Reader,
  ) {}

  /** The relay's checkpoint now, verified: E_BAD_SIGNATURE unless the pinned key signed it, E_WRONG_TABLE for another table's log. */
  async checkpoint(): Promise<SignedCheckpoint> {
    const note = await this.http.checkpoint(this.table);
    return { note, ...(await openCheckpoint(note, this.table, this.relayKey)) };
  }

  /** A source of the tree's hashes at `size` with every tile the `ranges` need fetched, after checking the tiles give the checkpoint's root (E_REFUTED otherwise). */
  async source(checkpoint: Checkpoint, ranges: readonly LeafRange[]): Promise<HashSource> {
    const size = checkpoint.size;
    const tiles = tilesForRanges([[0, size], ...ranges], size);
    const fetched = new Map(
      await Promise.all(
        tiles.map(async (t) => [tilePath(t), await this.http.tile(this.table, tilePath(t), this.reader)] as const),
      ),
    );
    const source = tileHashSource(size, (t) => fetched.get(tilePath(t)));
    if (!bytesEqual(rangeHash(0, size, source), checkpointRoot(checkpoint))) {
      throw new TrestleError(
        "E_REFUTED",
        `the relay's tiles of table ${this.table} do not give its signed root at size ${size}`,
        { size },
      );
    }
    return source;
  }

  /**
   * The relay's checkpoint now, checked to extend the one `kept` (a note this reader verified
   * before, or null): E_FORK when it does not. The caller keeps the returned note for next time.
   */
  async extending(kept: string | null): Promise<SignedCheckpoint> {
    const signed = await this.checkpoint();
    if (kept !== null)
      await this.extends((await openCheckpoint(kept, this.table, this.relayKey)).checkpoint, signed.checkpoint);
    return signed;
  }

  /** The proof file of entry `seq` against checkpoint `signed`: the entry (read as the reader), its inclusion proof from tiles, the signed note; checked before it is returned. */
  async prove(seq: number, signed: SignedCheckpoint): Promise<EntryProof> {
    if (!this.reader) throw new TrestleError("E_AUTH", "proving an entry reads it: as a seat or an owner");
    const size = signed.checkpoint.size;
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > size)
      throw new TrestleError(
        "E_NOT_FOUND",
        `the table's checkpoint has entries 1 to ${size}; there is no entry ${seq} to prove`,
        { seq, size },
      );
    const page = await this.http.entries(this.table, this.reader, seq, seq);
    const entry = EntrySchema.safeParse(page.items.find((item) => item.seq === seq)).data;
    if (!entry)
      throw new TrestleError(
        "E_FORBIDDEN",
        `entry ${seq} is not visible to this reader, so it cannot be proven from here`,
        { seq },
      );
    const source = await this.source(signed.checkpoint, inclusionRanges(seq - 1, size));
    const proof: EntryProof = {
      format: ENTRY_PROOF_FORMAT,
      table: this.table,
      relay_key: this.relayKey,
      entry,
      inclusion: inclusionProof(seq - 1, size, source).map(toBase64),
      checkpoint: signed.note,
    };
    await verifyEntryProof(proof, this.relayKey);
    return proof;
  }

  /** Checks that `newer` extends `older` (both verified checkpoints of this table): a consistency proof from tiles; E_FORK when it does not. */
  async extends(older: Checkpoint, newer: Checkpoint): Promise<void> {
    if (older.size > newer.size)
      throw new TrestleError(
        "E_FORK",
        `the relay's checkpoint of ${newer.size} entries is shorter than the ${older.size} it signed before`,
        { older: older.size, newer: newer.size },
      );
    const source = older.size === 0 ? null : await this.source(newer, consistencyRanges(older.size, newer.size));
    const proof = source ? consistencyProof(older.size, newer.size, source) : [];
    if (!verifyConsistency(older.size, newer.size, proof, checkpointRoot(older), checkpointRoot(newer))) {
      throw new TrestleError(
        "E_FORK",
        `the relay's checkpoint of ${newer.size} entries does not extend the one of ${older.size} it signed before`,
        { older: older.size, newer: newer.size },
      );
    }
  }
}
