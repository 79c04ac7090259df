/**
 * Judging relay heads on the client (docs/SPEC.md §8.3). Every head must be signed by the PINNED
 * relay key for this table. The rule: a head is *adopted* (held, stored, sent back as `known_head`
 * on writes) only once the entries up to it chain from the head already held: a ChainFollower
 * anchored at the held head (or passing through it) reached the head's seq with the head's link.
 * With nothing held, the first head is adopted as it is (there is nothing to chain from). Every
 * other signed head is remembered for this run and checked against later entries and heads.
 * A contradiction (two signed heads, or a signed head and the verified chain, that disagree at
 * one seq; or a head the relay presents as current that is older than one held) becomes evidence,
 * kept next to the held head in the store. From then on every call reports it (E_FORK) until
 * the owner clears it on purpose (`trestle evidence --clear`, docs/CLI.md); nothing the relay
 * says later replaces the held head or the evidence. A table this home holds at another relay
 * and not yet here may have moved (§8.4): no head of this relay is adopted until its chain shows
 * custody passed from there (follow-custody.ts), so a move never looks like a fork and a relay
 * cannot take a table over by serving it.
 */
import {
  EvidenceSchema,
  GENESIS_LINK,
  TrestleError,
  verifyHeadSignature,
  type Evidence,
  type HeadRef,
  type SignedHead,
} from "../protocol/index.js";

export type { Evidence } from "../protocol/index.js";

/** Where the held head and the evidence of each table are kept between runs (files, or memory). */
export interface HeadStore {
  /** The held head of `table` at the relay with key `relay`, or null. */
  load(relay: string, table: string): SignedHead | null;
  /** Replaces the held head of `head.table`; only ever called with a head chained from the previous one. */
  save(head: SignedHead): void;
  /** Evidence kept for `table` at the relay with key `relay`, oldest first. */
  evidence(relay: string, table: string): Evidence[];
  /** Keeps `evidence` (for the relay that signed its first head); a copy already kept is not added twice. */
  keep(evidence: Evidence): void;
  /** The held heads of `table` at relays other than the one with key `except` (a table that moved, §8.4). */
  elsewhere?(table: string, except: string): SignedHead[];
}

/** A HeadStore in memory (one process; browsers, tests): held heads and evidence by relay key and table. */
export class MemoryHeadStore implements HeadStore {
  private readonly heads = new Map<string, SignedHead>();
  private readonly kept = new Map<string, Evidence[]>();

  load(relay: string, table: string): SignedHead | null {
    return this.heads.get(`${relay}/${table}`) ?? null;
  }

  save(head: SignedHead): void {
    this.heads.set(`${head.relay}/${head.table}`, head);
  }

  evidence(relay: string, table: string): Evidence[] {
    return [...(this.kept.get(`${relay}/${table}`) ?? [])];
  }

  keep(evidence: Evidence): void {
    const key = `${evidence.heads[0]!.relay}/${evidence.table}`;
    const items = this.kept.get(key) ?? [];
    if (!items.some((e) => sameEvidence(e, evidence))) this.kept.set(key, [...items, evidence]);
  }

  elsewhere(table: string, except: string): SignedHead[] {
    return [...this.heads.values()].filter((h) => h.table === table && h.relay !== except);
  }
}

/** Thrown when the relay is caught: E_FORK with the evidence in `details.evidence`. */
export function evidenceError(evidence: Evidence): TrestleError {
  return new TrestleError("E_FORK", evidence.message, { evidence });
}

/** The evidence carried by an error from `evidenceError`, if any. */
export function evidenceOf(error: unknown): Evidence | undefined {
  if (!(error instanceof TrestleError) || error.code !== "E_FORK") return undefined;
  const parsed = EvidenceSchema.safeParse(error.details?.evidence);
  return parsed.success ? parsed.data : undefined;
}

/** Whether two pieces of evidence are the same finding (same kind, seq and signed heads). */
export function sameEvidence(a: Evidence, b: Evidence): boolean {
  return (
    a.kind === b.kind &&
    a.table === b.table &&
    a.seq === b.seq &&
    a.heads.map((h) => h.sig).join() === b.heads.map((h) => h.sig).join()
  );
}

/** Tracks one table's heads against one pinned relay key. */
export class HeadTracker {
  private adopted: SignedHead | null = null;
  /** Signed heads seen, by seq (one per seq: a second, different one is a fork). */
  private readonly signed = new Map<number, SignedHead>();
  /** Links the client verified from entries (and those of adopted heads), by seq. */
  private readonly links = new Map<number, string>();
  private readonly found: Evidence[] = [];
  /** Held heads of this table at other relays, signatures checked (see `awaitingCustody`). */
  private pastHeads: SignedHead[] = [];

  constructor(
    readonly relayKey: string,
    readonly table: string,
    private readonly store?: HeadStore,
  ) {}

  /** Loads the kept evidence and the held head, re-verifying every signature; anything that fails is ignored. */
  async load(): Promise<void> {
    for (const evidence of this.store?.evidence(this.relayKey, this.table) ?? []) {
      if (await this.genuine(evidence.heads)) this.found.push(evidence);
    }
    const stored = this.store?.load(this.relayKey, this.table) ?? null;
    if (stored && (await this.genuine([stored]))) this.adopt(stored, false);
    for (const head of this.store?.elsewhere?.(this.table, this.relayKey) ?? []) {
      if (head.table === this.table && (await verifyHeadSignature(head))) this.pastHeads.push(head);
    }
  }

  /** Held heads of this table at other relays: where it may have come from (§8.4). */
  get past(): readonly SignedHead[] {
    return this.pastHeads;
  }

  /**
   * True while nothing is held at this relay but this home holds the table at another: then no
   * head is adopted as it is, only once the relay's chain shows custody passed from there
   * (`acceptCustody`, after follow-custody.ts verified it).
   */
  get awaitingCustody(): boolean {
    return this.adopted === null && this.pastHeads.length > 0;
  }

  /** A table created here is new: heads held for its id at other relays belong to other tables. */
  startFresh(): void {
    this.pastHeads = [];
  }

  /** Adopts `head` of this relay once the caller verified that its chain continues a past relay's held head through authorised custody. */
  async acceptCustody(head: SignedHead): Promise<void> {
    if (!(await this.genuine([head])))
      throw new TrestleError("E_BAD_RESPONSE", `the head at ${head.seq} is not this relay's for ${this.table}`);
    this.adopt(head, true);
  }

  /** Loads the evidence kept against the past relays `keys` for this table: what was found following it from there counts here too. */
  async loadPastEvidence(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      for (const evidence of this.store?.evidence(key, this.table) ?? []) {
        const verified = await Promise.all(evidence.heads.map((h) => verifyHeadSignature(h)));
        if (verified.every(Boolean) && !this.found.some((e) => sameEvidence(e, evidence))) this.found.push(evidence);
      }
    }
  }

  /** The held head: the newest one whose chain this client verified from the one held before, or null. */
  get held(): SignedHead | null {
    return this.adopted;
  }

  /** Evidence against this relay for this table, kept or found in this run, oldest first. */
  get evidence(): readonly Evidence[] {
    return this.found;
  }

  /** Every signed head seen in this run (held or not yet chained) and the held one, by seq: each is the relay's commitment, so verification checks a ledger against all of them. */
  get seen(): SignedHead[] {
    return [...this.signed.values()].sort((a, b) => a.seq - b.seq);
  }

  /** The newest signed head seen beyond the held one, not yet chained from it; null when there is none. */
  get ahead(): SignedHead | null {
    let newest: SignedHead | null = null;
    for (const head of this.signed.values())
      if (head.seq > (this.adopted?.seq ?? 0) && head.seq > (newest?.seq ?? 0)) newest = head;
    return newest;
  }

  /** Throws E_FORK with the first evidence held: a relay once caught stays caught until the owner clears it. */
  /**
   * Takes in evidence kept in this home since `load`, by another client or process (a long-running
   * watch or MCP server then stops at its next call, not at its next start), then as assertClean.
   * Signatures are checked again, as in `load`; evidence that does not verify is ignored.
   */
  async checkClean(): Promise<void> {
    for (const evidence of this.store?.evidence(this.relayKey, this.table) ?? []) {
      if (this.found.some((e) => sameEvidence(e, evidence))) continue;
      if (await this.genuine(evidence.heads)) this.found.push(evidence);
    }
    this.assertClean();
  }

  /** Throws E_FORK with the first evidence held against this relay for this table, if any. */
  assertClean(): void {
    const first = this.found[0];
    if (first) throw evidenceError(first);
  }

  /** `{ seq, link }` of the held head, for a write's `known_head`. */
  knownHead(): HeadRef | undefined {
    return this.adopted ? { seq: this.adopted.seq, link: this.adopted.link } : undefined;
  }

  /** Whether `point` is a place this tracker verified (or the genesis), so a chain may be followed from it. */
  trusts(point: HeadRef): boolean {
    return point.seq === 0 ? point.link === GENESIS_LINK : this.links.get(point.seq) === point.link;
  }

  /**
   * Verifies `head` and remembers it; adopts it when its chain from the held head is verified (or
   * nothing is held). `currentSince` is the head held when the request that returned `head` as the
   * relay's *current* head was sent: a current head older than that is a truncation. Throws
   * E_RELAY_KEY, E_BAD_RESPONSE, or E_FORK with evidence (kept).
   */
  async observe(head: SignedHead, currentSince?: SignedHead | null): Promise<void> {
    this.assertClean();
    if (head.relay !== this.relayKey) {
      throw new TrestleError(
        "E_RELAY_KEY",
        `a head for ${head.table} is signed by ${head.relay}, not the pinned relay key ${this.relayKey}`,
      );
    }
    if (head.table !== this.table)
      throw new TrestleError("E_BAD_RESPONSE", `a head for table "${head.table}" arrived for "${this.table}"`);
    if (!(await verifyHeadSignature(head)))
      throw new TrestleError("E_BAD_RESPONSE", `the relay's head at ${head.seq} has a bad signature`);
    const same = this.signed.get(head.seq);
    if (same && same.link !== head.link) throw this.caught(fork(same, head));
    const link = this.links.get(head.seq);
    if (link !== undefined && link !== head.link) {
      const committed = this.committing(head.seq);
      throw this.caught(
        committed
          ? fork(committed, head, `disagrees with the chain its head at ${committed.seq} commits to`)
          : chainFork(head, null),
      );
    }
    if (currentSince && head.seq < currentSince.seq) throw this.caught(truncation(currentSince, head));
    if (!this.awaitingCustody && (link === head.link || this.adopted === null)) this.adopt(head, true);
    else this.signed.set(head.seq, head);
  }

  /** Records a link the client computed from entries; adopts a signed head it reaches; throws E_FORK if a signed head disagrees. */
  recordLink(seq: number, link: string): void {
    const head = this.signed.get(seq);
    if (head && head.link !== link) throw this.caught(chainFork(head, this.beyond(seq)));
    const known = this.links.get(seq);
    if (known !== undefined && known !== link)
      throw this.chainBreak(seq + 1, `the relay sent two different chains up to entry ${seq}`);
    this.links.set(seq, link);
    if (head && !this.awaitingCustody) this.adopt(head, true);
  }

  /** The error for entries that do not continue the verified chain at `seq`: a fork when a signed head commits to that chain. */
  chainBreak(seq: number, why: string): TrestleError {
    const committed = this.committing(seq - 1);
    if (!committed) return new TrestleError("E_BAD_RESPONSE", why);
    const relays = this.beyond(seq - 1);
    return this.caught({
      kind: "fork",
      table: this.table,
      seq,
      heads: relays ? [committed, relays] : [committed],
      message: `fork: ${why}, but the relay signed a head at ${committed.seq} committing to the chain this client verified`,
    });
  }

  /** Keeps `evidence` (in this run and in the store) and returns the E_FORK error that reports it. */
  caught(evidence: Evidence): TrestleError {
    if (!this.found.some((e) => sameEvidence(e, evidence))) {
      this.found.push(evidence);
      this.store?.keep(evidence);
    }
    return evidenceError(evidence);
  }

  /** A signed head at or after `seq` that the client's verified chain reached and matched. */
  private committing(seq: number): SignedHead | undefined {
    for (const head of this.signed.values()) if (head.seq >= seq && this.links.get(head.seq) === head.link) return head;
    return undefined;
  }

  /** The newest signed head after `seq`: the relay's own claim about where its chain goes. */
  private beyond(seq: number): SignedHead | null {
    let newest: SignedHead | null = null;
    for (const head of this.signed.values()) if (head.seq > seq && head.seq > (newest?.seq ?? 0)) newest = head;
    return newest;
  }

  private async genuine(heads: readonly SignedHead[]): Promise<boolean> {
    for (const head of heads) {
      if (head.relay !== this.relayKey || head.table !== this.table || !(await verifyHeadSignature(head))) return false;
    }
    return true;
  }

  private adopt(head: SignedHead, persist: boolean): void {
    this.signed.set(head.seq, head);
    this.links.set(head.seq, head.link);
    if (this.adopted && head.seq <= this.adopted.seq) return;
    this.adopted = head;
    if (persist) this.store?.save(head);
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

function chainFork(head: SignedHead, relays: SignedHead | null): Evidence {
  return {
    kind: "fork",
    table: head.table,
    seq: head.seq,
    heads: relays && relays.seq !== head.seq ? [head, relays] : [head],
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
