/**
 * Judging relay heads on the client (docs/SPEC.md §4.4). Every head must be signed by the PINNED
 * relay key for this table; the tracker keeps the newest verified head (sent back as `known_head`
 * on writes) and the links the client has verified, and turns any contradiction into evidence:
 * two signed heads, or a signed head and the chain, that disagree at one seq (a fork), or a head
 * the relay presents as current that is older than one already held (a truncation).
 */
import { TrestleError, verifyHeadSignature, type HeadRef, type SignedHead } from "../protocol/index.js";

/**
 * Proof the relay misbehaved, as the client saw it. With two heads (same seq, different links; or
 * a current head older than one held) it is transferable: both are relay-signed. With one head,
 * the other half is the entries the relay sent, which chain to a different link at `seq`.
 */
export interface Evidence {
  kind: "fork" | "truncation";
  table: string;
  seq: number;
  heads: SignedHead[];
  message: string;
}

/** Where the newest verified head of each table is kept between runs (a file, or memory). */
export interface HeadStore {
  load(relay: string, table: string): SignedHead | null;
  save(head: SignedHead): void;
}

/** Thrown when the relay is caught: E_FORK with the evidence in `details.evidence`. */
export function evidenceError(evidence: Evidence): TrestleError {
  return new TrestleError("E_FORK", evidence.message, { evidence });
}

/** The evidence carried by an error from `evidenceError`, if any. */
export function evidenceOf(error: unknown): Evidence | undefined {
  if (!(error instanceof TrestleError) || error.code !== "E_FORK") return undefined;
  const evidence = error.details?.evidence;
  return typeof evidence === "object" && evidence !== null && "heads" in evidence ? (evidence as Evidence) : undefined;
}

/** Tracks one table's heads against one pinned relay key. */
export class HeadTracker {
  private newest: SignedHead | null = null;
  /** Signed heads seen, by seq (one per seq: a second, different one is a fork). */
  private readonly signed = new Map<number, SignedHead>();
  /** Links the client verified from entries, by seq. */
  private readonly links = new Map<number, string>();

  constructor(
    readonly relayKey: string,
    readonly table: string,
    private readonly store?: HeadStore,
  ) {}

  /** Loads the stored head (re-verifying its signature); a stored head that fails is ignored. */
  async load(): Promise<void> {
    const stored = this.store?.load(this.relayKey, this.table) ?? null;
    if (stored && stored.relay === this.relayKey && stored.table === this.table && (await verifyHeadSignature(stored))) {
      this.remember(stored);
    }
  }

  /** The newest verified head, or null. */
  get held(): SignedHead | null {
    return this.newest;
  }

  /** `{ seq, link }` of the newest verified head, for a write's `known_head`. */
  knownHead(): HeadRef | undefined {
    return this.newest ? { seq: this.newest.seq, link: this.newest.link } : undefined;
  }

  /**
   * Verifies `head` and keeps it if newer. `currentSince` is the head held when the request that
   * returned `head` as the relay's *current* head was sent: a current head older than that is a
   * truncation. Throws E_RELAY_KEY, E_BAD_RESPONSE, or E_FORK with evidence.
   */
  async observe(head: SignedHead, currentSince?: SignedHead | null): Promise<void> {
    if (head.relay !== this.relayKey) {
      throw new TrestleError("E_RELAY_KEY", `a head for ${head.table} is signed by ${head.relay}, not the pinned relay key ${this.relayKey}`);
    }
    if (head.table !== this.table) throw new TrestleError("E_BAD_RESPONSE", `a head for table "${head.table}" arrived for "${this.table}"`);
    if (!(await verifyHeadSignature(head))) throw new TrestleError("E_BAD_RESPONSE", `the relay's head at ${head.seq} has a bad signature`);
    const same = this.signed.get(head.seq);
    if (same && same.link !== head.link) throw evidenceError(fork(same, head));
    const link = this.links.get(head.seq);
    if (link !== undefined && link !== head.link) {
      const committed = this.committing(head.seq);
      throw evidenceError(
        committed
          ? fork(committed, head, `disagrees with the chain its head at ${committed.seq} commits to`)
          : chainFork(head),
      );
    }
    if (currentSince && head.seq < currentSince.seq) throw evidenceError(truncation(currentSince, head));
    this.remember(head);
  }

  /** Records a link the client computed from entries; throws E_FORK if a held signed head disagrees. */
  recordLink(seq: number, link: string): void {
    const head = this.signed.get(seq);
    if (head && head.link !== link) throw evidenceError(chainFork(head));
    this.links.set(seq, link);
  }

  /** The error for entries that do not continue the verified chain at `seq`: a fork when a signed head commits to that chain. */
  chainBreak(seq: number, why: string): TrestleError {
    const committed = this.committing(seq - 1);
    if (!committed) return new TrestleError("E_BAD_RESPONSE", why);
    return evidenceError({
      kind: "fork",
      table: this.table,
      seq,
      heads: [committed],
      message: `fork: ${why}, but the relay signed a head at ${committed.seq} committing to the chain this client verified`,
    });
  }

  /** A signed head at or after `seq` that the client's verified chain reached and matched. */
  private committing(seq: number): SignedHead | undefined {
    for (const head of this.signed.values()) if (head.seq >= seq && this.links.get(head.seq) === head.link) return head;
    return undefined;
  }

  private remember(head: SignedHead): void {
    this.signed.set(head.seq, head);
    if (!this.newest || head.seq > this.newest.seq) {
      this.newest = head;
      this.store?.save(head);
    }
  }
}

function fork(held: SignedHead, seen: SignedHead, why = "conflicts with a head it signed before"): Evidence {
  return {
    kind: "fork",
    table: seen.table,
    seq: seen.seq,
    heads: [held, seen],
    message: `fork: the relay's signed head at ${seen.seq} ${why}`,
  };
}

function chainFork(head: SignedHead): Evidence {
  return {
    kind: "fork",
    table: head.table,
    seq: head.seq,
    heads: [head],
    message: `fork: the relay's entries chain to a different link at ${head.seq} than its signed head`,
  };
}

function truncation(held: SignedHead, seen: SignedHead): Evidence {
  return {
    kind: "truncation",
    table: seen.table,
    seq: seen.seq,
    heads: [held, seen],
    message: `truncation: the relay says its ledger ends at ${seen.seq}, but it signed a head at ${held.seq} before`,
  };
}
