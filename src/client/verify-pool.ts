/**
 * An export's order-free checks (each entry's leaf hash and recorded signatures, the protocol's
 * `checkEntries`) spread over Node worker threads and, where a `local` checker is given, the
 * calling thread: the `checker` a Node caller passes to `verifyExportText`. Windows wait in one
 * queue; each worker is kept two windows ahead from its front, and the calling thread, whenever it
 * is free (after the policy replay, between the chain checks), takes the window at its back, so
 * no core idles while windows wait and no worker is started for a core the calling thread can use.
 * Each checker runs exactly the protocol's reference code; the protocol still judges every result
 * in ledger order, so the verdict and the refuted seq are those of the serial check. Workers hold
 * the process open only while a window is out, so a caller never has to close the pool.
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

/** A window waiting for a checker, and how to settle its promise. */
interface Job {
  id: number;
  entries: readonly Entry[];
  texts: readonly (string | null)[];
  resolve(checks: EntryCheck[]): void;
  reject(error: Error): void;
}

/** Windows each worker has out at once: the next is already there when it posts one back. */
const AHEAD = 2;

/** The threads to start beside a calling thread that checks too: one for each other core. */
export function threadsBeside(): number {
  return availableParallelism() - 1;
}

/**
 * Starts `threads` workers from `script` (the bundled verify-worker.ts) and, with `local`, checks
 * windows on the calling thread too (then `threads` may be 0); without it at least one worker starts.
 */
export function checkerPool(script: URL, threads = availableParallelism(), local?: EntryChecker): CheckerPool {
  const queue: Job[] = [];
  const out = new Map<Worker, Map<number, Job>>();
  let serial = 0;
  let stealing = false;
  let closed = false;
  const send = (worker: Worker, job: Job) => {
    out.get(worker)!.set(job.id, job);
    worker.ref();
    const request: CheckRequest = {
      id: job.id,
      texts: job.entries.map((_, i) => job.texts[i] ?? null),
      untexted: job.entries.filter((_, i) => !job.texts[i]),
    };
    worker.postMessage(request);
  };
  const feed = () => {
    for (const [worker, jobs] of out) while (jobs.size < AHEAD && queue.length > 0) send(worker, queue.shift()!);
  };
  // The calling thread's turn: one window from the back, then back to the event loop (replies, the chain check) before the next.
  const steal = () => {
    const job = closed ? undefined : queue.pop();
    if (!job || !local) {
      stealing = false;
      return;
    }
    local(job.entries, job.texts).then(job.resolve, job.reject);
    setImmediate(steal);
  };
  const start = () => {
    const worker = new Worker(script);
    worker.unref();
    out.set(worker, new Map());
    worker.on("message", (reply: CheckReply) => {
      const jobs = out.get(worker);
      const job = jobs?.get(reply.id);
      if (!jobs || !job) return;
      jobs.delete(reply.id);
      if (jobs.size === 0) worker.unref();
      if (reply.checks) job.resolve(reply.checks);
      else job.reject(new Error(`a verify worker failed: ${reply.error ?? "no reply"}`));
      feed();
    });
    const fail = (error: Error) => {
      const jobs = out.get(worker);
      if (!jobs) return;
      out.delete(worker);
      for (const job of jobs.values()) job.reject(error);
      // No thread left to check what waits: it fails with this one.
      if (out.size === 0 && !local) for (const job of queue.splice(0)) job.reject(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a verify worker exited (code ${code})`)));
  };
  for (let i = 0; i < (local ? Math.max(0, threads) : Math.max(1, threads)); i += 1) start();
  const check: EntryChecker = (entries, texts = []) =>
    new Promise((resolve, reject) => {
      queue.push({ id: (serial += 1), entries, texts, resolve, reject });
      feed();
      if (local && !stealing && queue.length > 0) {
        stealing = true;
        // Not now: the caller hands over every window before its own sequential work (the policy replay).
        setImmediate(steal);
      }
    });
  return {
    check,
    close: async () => {
      closed = true;
      queue.length = 0;
      // Not awaited: a worker's terminate() at times never settles (seen in about 1 of 16 refuted
      // exports), and a process whose last await never settles exits 13 with no report (decision 0429).
      for (const worker of out.keys()) void worker.terminate();
    },
  };
}
