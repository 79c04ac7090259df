/**
 * Following a table's hash chain from entries the relay sends (docs/SPEC.md §4.3): each item must
 * be the next seq; a full entry's content must hash to its leaf and its link must follow from the
 * previous one; a hidden entry contributes its leaf. Every link is handed to the HeadTracker, so
 * a signed head that disagrees with the chain is caught at that seq.
 */
import {
  GENESIS_LINK,
  isEntry,
  leafOf,
  linkOf,
  TrestleError,
  type Entry,
  type HiddenEntry,
  type SignedHead,
} from "../protocol/index.js";
import type { HeadTracker } from "./heads.js";

/** A point on the chain: the last verified seq (0 before entry 1) and its link. */
export interface ChainPoint {
  seq: number;
  link: string;
}

/** The chain before entry 1. */
export const GENESIS: ChainPoint = { seq: 0, link: GENESIS_LINK };

/** Verifies consecutive items from an anchor; `position` is the last verified point. */
export class ChainFollower {
  private point: ChainPoint;

  /** `anchor` must be the genesis or a point `tracker` verified (its held head, say): a chain is only followed from there. */
  constructor(
    private readonly tracker: HeadTracker,
    anchor: ChainPoint = GENESIS,
  ) {
    if (!tracker.trusts(anchor))
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `entry ${anchor.seq} with that link is not a point this client verified`,
      );
    this.point = { ...anchor };
  }

  /** The last verified seq and link. */
  get position(): ChainPoint {
    return { ...this.point };
  }

  /** Verifies `items` (which must continue the chain) and returns them; throws E_BAD_RESPONSE or E_FORK. */
  accept(items: readonly (Entry | HiddenEntry)[]): (Entry | HiddenEntry)[] {
    for (const item of items) {
      const seq = this.point.seq + 1;
      if (item.seq !== seq)
        throw new TrestleError("E_BAD_RESPONSE", `expected entry ${seq} from the relay, got ${item.seq}`);
      if (isEntry(item) && item.table !== this.tracker.table) {
        throw new TrestleError("E_BAD_RESPONSE", `entry ${seq} belongs to table "${item.table}"`);
      }
      const leaf = isEntry(item) ? leafOf(item) : item.leaf;
      if (leaf !== item.leaf)
        throw new TrestleError("E_BAD_RESPONSE", `entry ${seq}'s content does not match its leaf hash`);
      const link = linkOf(this.point.link, leaf);
      if (isEntry(item) && item.link !== link)
        throw this.tracker.chainBreak(seq, `entry ${seq}'s link does not follow the chain`);
      this.tracker.recordLink(seq, link);
      this.point = { seq, link };
    }
    return [...items];
  }

  /** After a batch: a head at the current position must carry its link (a head further on is checked when reached). */
  checkHead(head: SignedHead): void {
    if (head.seq < this.point.seq) {
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `the relay sent entries up to ${this.point.seq} with an older head (${head.seq})`,
      );
    }
  }
}
