/**
 * Relay heads for this table, signed on demand (Ed25519 is deterministic, so nothing is stored).
 * Writes share signatures (group signing): a write that asks for a head joins the open group, and
 * the group is signed once, over the newest entry then, when GROUP_SIZE writes have joined it or
 * on the next turn of the event loop, whichever comes first. Each ack so carries a head at or after
 * its own entry (docs/SPEC.md §4.4), and a burst of writes costs one signature per group, not one
 * each: the runtime hands a table its queued messages one after another, each finished before the
 * next, so without the group every write would sign alone. Reads ask for the head of exactly the
 * state they were computed from.
 */
import type { Signer } from "../../../src/protocol/signing/crypto.js";
import { signHead } from "../../../src/protocol/signing/head.js";
import type { HeadRef } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";

/** Writes sharing one head signature at most: enough to make signing a small part of a write, few enough that acks keep flowing to pipelined writers while their messages queue. */
export const GROUP_SIZE = 8;

/** Writes waiting for one shared signature. */
interface Group {
  /** How many writes joined. */
  asks: number;
  /** The newest entry any of them asked after. */
  tip: HeadRef;
  /** Closes the group and signs it. */
  close(): void;
  head: Promise<SignedHead>;
}

/** Signs heads for one table with the relay key. */
export class Heads {
  private last: SignedHead | undefined;
  private group: Group | undefined;

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
    const group = (this.group ??= this.open(tip));
    group.asks += 1;
    if (tip.seq > group.tip.seq) group.tip = tip;
    if (group.asks >= GROUP_SIZE) group.close();
    return group.head;
  }

  /** The signed head at exactly `point` (cached when it is the newest signed one). */
  at(point: HeadRef): Promise<SignedHead> {
    if (this.last?.seq === point.seq) return Promise.resolve(this.last);
    return this.signer().then((s) => signHead(s, { table: this.table, seq: point.seq, link: point.link }));
  }

  /** A new group, closed by its GROUP_SIZE-th write or by a timer on the next turn, then signed over the newest entry (never one older than any write in it asked after). */
  private open(tip: HeadRef): Group {
    let closed!: () => void;
    const ready = new Promise<void>((resolve) => (closed = resolve));
    const timer = setTimeout(() => group.close(), 0);
    const group: Group = {
      asks: 0,
      tip,
      close: () => {
        clearTimeout(timer);
        if (this.group === group) this.group = undefined;
        closed();
      },
      head: ready.then(() => {
        const now = this.tip();
        return this.at(now.seq >= group.tip.seq ? now : group.tip);
      }).then((head) => {
        if (!this.last || head.seq > this.last.seq) this.last = head;
        return head;
      }),
    };
    return group;
  }
}
