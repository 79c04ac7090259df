/**
 * Relay heads for this table: signed on demand (Ed25519 is deterministic, so nothing is stored),
 * with the newest one cached so GET /head and pushes do not sign twice.
 */
import type { Signer } from "../../src/protocol/crypto.js";
import { signHead } from "../../src/protocol/head.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";

/** Signs heads for one table with the relay key. */
export class Heads {
  private last: Promise<SignedHead> | undefined;
  private lastSeq = 0;

  constructor(
    private readonly table: string,
    private readonly signer: () => Promise<Signer>,
  ) {}

  /** The signed head at (seq, link). */
  at(seq: number, link: string): Promise<SignedHead> {
    if (this.last && seq === this.lastSeq) return this.last;
    const head = this.signer().then((s) => signHead(s, { table: this.table, seq, link }));
    if (seq > this.lastSeq) {
      this.last = head;
      this.lastSeq = seq;
      head.catch(() => {
        if (this.last === head) this.last = undefined, (this.lastSeq = 0);
      });
    }
    return head;
  }
}
