/**
 * Relay heads for this table, signed on demand (Ed25519 is deterministic, so nothing is stored).
 * Writes share signatures (group signing): at most one head signature is in flight; every write
 * that asks for a head meanwhile waits for it and then gets one signature over the newest entry,
 * shared by all of them, so each ack carries a head at or after its own entry (docs/SPEC.md §4.4)
 * and a burst of writes costs one signature, not one each. Reads ask for the head of exactly the
 * state they were computed from.
 */
import type { Signer } from "../../../src/protocol/signing/crypto.js";
import { signHead } from "../../../src/protocol/signing/head.js";
import type { HeadRef } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";

/** Signs heads for one table with the relay key. */
export class Heads {
  private last: SignedHead | undefined;
  private inflight: Promise<SignedHead> | undefined;
  private next: Promise<SignedHead> | undefined;

  constructor(
    private readonly table: string,
    private readonly signer: () => Promise<Signer>,
    /** The ledger's newest entry now. */
    private readonly tip: () => HeadRef,
  ) {}

  /** A signed head at or after the newest entry at the time of the call. */
  current(): Promise<SignedHead> {
    const tip = this.tip();
    if (this.last?.seq === tip.seq) return Promise.resolve(this.last);
    if (!this.inflight) return this.sign(tip);
    // One is in flight for an older entry: after it, one more signature for everyone who asked meanwhile.
    this.next ??= this.inflight.then(
      () => this.again(),
      () => this.again(),
    );
    return this.next;
  }

  /** The signed head at exactly `point` (cached when it is the newest signed one). */
  at(point: HeadRef): Promise<SignedHead> {
    if (this.last?.seq === point.seq) return Promise.resolve(this.last);
    return this.signer().then((s) => signHead(s, { table: this.table, seq: point.seq, link: point.link }));
  }

  private again(): Promise<SignedHead> {
    this.next = undefined;
    return this.current();
  }

  private sign(tip: HeadRef): Promise<SignedHead> {
    const signed = this.at(tip).then(
      (head) => {
        this.inflight = undefined;
        if (!this.last || head.seq > this.last.seq) this.last = head;
        return head;
      },
      (error: unknown) => {
        this.inflight = undefined;
        throw error;
      },
    );
    this.inflight = signed;
    return signed;
  }
}
