/**
 * An export's order-free checks (each entry's leaf hash and recorded signatures, the protocol's
 * `checkEntries`) spread over Node worker threads, one per core: the `checker` a Node caller
 * passes to `verifyExportText`. Each worker runs exactly the protocol's reference code on the
 * windows it is handed; the protocol still judges every result in ledger order, so the verdict
 * and the refuted seq are those of the serial check. Workers hold the process open only while a
 * window is out, so a caller never has to close the pool.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Entry, EntryCheck, EntryChecker } from "../protocol/index.js";

/**
 * A window as it is posted to a worker: each entry's canonical text where it has one (a string is
 * copied whole, an object field by field), and as a cloned object only the entries without one.
 */
export interface CheckRequest {
  id: number;
  texts: (string | null)[];
  /** The entries whose text is null, in order. */
  untexted: Entry[];
}

/** What a worker posts back for window `id`: its checks, or why it could not check them. */
export interface CheckReply {
  id: number;
  checks?: EntryCheck[];
  error?: string;
}

/** A pool of checking threads: `check` is an EntryChecker; `close` ends the threads (optional: idle threads never keep the process alive). */
export interface CheckerPool {
  check: EntryChecker;
  close(): Promise<void>;
}

/** Starts `threads` workers from `script` (the bundled verify-worker.ts) and hands each window to the next one in turn. */
export function checkerPool(script: URL, threads = availableParallelism()): CheckerPool {
  const waiting = new Map<number, { resolve(checks: EntryCheck[]): void; reject(error: Error): void; worker: Worker }>();
  const out = new Map<Worker, number>();
  const settle = (worker: Worker) => {
    const left = (out.get(worker) ?? 1) - 1;
    out.set(worker, left);
    if (left === 0) worker.unref();
  };
  const workers = Array.from({ length: Math.max(1, threads) }, () => {
    const worker = new Worker(script);
    worker.unref();
    worker.on("message", (reply: CheckReply) => {
      const request = waiting.get(reply.id);
      if (!request) return;
      waiting.delete(reply.id);
      settle(worker);
      if (reply.checks) request.resolve(reply.checks);
      else request.reject(new Error(`a verify worker failed: ${reply.error ?? "no reply"}`));
    });
    const fail = (error: Error) => {
      for (const [id, request] of waiting) {
        if (request.worker !== worker) continue;
        waiting.delete(id);
        settle(worker);
        request.reject(error);
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a verify worker exited (code ${code})`)));
    return worker;
  });
  let serial = 0;
  const check: EntryChecker = (entries, texts = []) =>
    new Promise((resolve, reject) => {
      const id = (serial += 1);
      const worker = workers[id % workers.length]!;
      waiting.set(id, { resolve, reject, worker });
      out.set(worker, (out.get(worker) ?? 0) + 1);
      worker.ref();
      const request: CheckRequest = { id, texts: entries.map((_, i) => texts[i] ?? null), untexted: entries.filter((_, i) => !texts[i]) };
      worker.postMessage(request);
    });
  return {
    check,
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
