/**
 * The push of appended entries (durable-objects/table/sockets/push-queue.ts): a few entries go out
 * together when the timer fires, and a burst goes out while it lasts, in pushes of at most
 * PUSH_BATCH_MAX entries that start without the timer (which workerd runs late under a burst),
 * every entry once and in ledger order.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TableContext } from "../../../durable-objects/table/context.js";
import { PUSH_BATCH_MAX, PushQueue } from "../../../durable-objects/table/sockets/push-queue.js";
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";

/** A public viewer's socket that has been sent everything up to `cursor`, keeping the frames it is sent. */
class Viewer {
  readonly frames: { items: { seq: number }[]; head: SignedHead }[] = [];
  private attachment = { public: true, cursor: 0 };

  send(text: string): void {
    this.frames.push(JSON.parse(text));
  }
  deserializeAttachment() {
    return this.attachment;
  }
  serializeAttachment(attachment: { public: true; cursor: number }): void {
    this.attachment = attachment;
  }
  /** The number of entries in each push, in order. */
  sizes(): number[] {
    return this.frames.map((f) => f.items.length);
  }
  seqs(): number[] {
    return this.frames.flatMap((f) => f.items.map((i) => i.seq));
  }
}

/** A table whose ledger has `tip.seq` entries, followed by `viewer`. */
function tableOf(viewer: Viewer, tip: { seq: number }): TableContext {
  return {
    state: {},
    pushHead: () => Promise.resolve({ table: "t", seq: tip.seq, link: "l", relay: "r", sig: "s" }),
    sockets: () => [viewer],
  } as unknown as TableContext;
}

/** Appends entries seq by seq, as writes do, `each` at a time, up to `to`. */
function append(queue: PushQueue, tip: { seq: number }, to: number, each = 1): void {
  while (tip.seq < to) {
    const entries = Array.from({ length: Math.min(each, to - tip.seq) }, (_, i) => ({ seq: tip.seq + i + 1 }) as Entry);
    tip.seq += entries.length;
    queue.queue(entries);
  }
}

/** Lets every chained push run, without letting a timer fire. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));
const seqsTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("the push queue", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends a few entries as one push when its timer fires, with a head at or after the last of them", async () => {
    const viewer = new Viewer();
    const tip = { seq: 0 };
    const queue = new PushQueue(tableOf(viewer, tip));
    append(queue, tip, 3);
    await settled();
    expect(viewer.frames).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(viewer.sizes()).toEqual([3]);
    expect(viewer.frames[0]!.head.seq).toBe(3);
    expect(viewer.deserializeAttachment().cursor).toBe(3);
  });

  it("starts a push once PUSH_BATCH_MAX entries wait, without the timer, no push carrying more and none left behind", async () => {
    const viewer = new Viewer();
    const tip = { seq: 0 };
    const queue = new PushQueue(tableOf(viewer, tip));
    append(queue, tip, 3 * PUSH_BATCH_MAX + 8);
    await settled();
    expect(viewer.sizes()).toEqual([PUSH_BATCH_MAX, PUSH_BATCH_MAX, PUSH_BATCH_MAX, 8]);
    await vi.advanceTimersByTimeAsync(0);
    expect(viewer.sizes()).toHaveLength(4);
    expect(viewer.seqs()).toEqual(seqsTo(3 * PUSH_BATCH_MAX + 8));
  });

  it("splits one write of many entries (a replica's page) into pushes of at most PUSH_BATCH_MAX, all without the timer", async () => {
    const viewer = new Viewer();
    const tip = { seq: 0 };
    const queue = new PushQueue(tableOf(viewer, tip));
    append(queue, tip, 2 * PUSH_BATCH_MAX + 22, 2 * PUSH_BATCH_MAX + 22);
    await settled();
    expect(viewer.sizes()).toEqual([PUSH_BATCH_MAX, PUSH_BATCH_MAX, 22]);
    expect(viewer.seqs()).toEqual(seqsTo(2 * PUSH_BATCH_MAX + 22));
  });

  it("keeps pushing entries that arrive while a burst is pushed, each once and in order", async () => {
    const viewer = new Viewer();
    const tip = { seq: 0 };
    const queue = new PushQueue(tableOf(viewer, tip));
    for (let round = 1; round <= 5; round++) {
      append(queue, tip, round * 100, 7);
      await settled();
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(viewer.seqs()).toEqual(seqsTo(500));
    expect(Math.max(...viewer.sizes())).toBeLessThanOrEqual(PUSH_BATCH_MAX);
  });

  it("sends nothing queued before the table was deleted", async () => {
    const viewer = new Viewer();
    const tip = { seq: 0 };
    const queue = new PushQueue(tableOf(viewer, tip));
    append(queue, tip, 10);
    queue.clear();
    await vi.advanceTimersByTimeAsync(0);
    expect(viewer.frames).toEqual([]);
  });
});
