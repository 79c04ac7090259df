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
 * `prefetch` starts the workers on the windows an export is expected to give (as texts) while the
 * caller still parses it: each such window is checked once, by the first thread to claim it in a
 * shared array (workers from the front, the calling thread from the back), and its checks answer a
 * later `check` only of exactly the same texts (decision 0429).
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

/** What a worker posts back for window `id`: its checks, why it could not check them, or (a prefetched window) that another thread claimed it first. */
export interface CheckReply {
  id: number;
  checks?: EntryCheck[];
  error?: string;
  skipped?: true;
}

/** Windows to check ahead, as texts, in order: window `i` only after claiming it (0 to 1) at `claims[i]`. */
export interface PrefetchRequest {
  claims: Int32Array;
  windows: { id: number; texts: string[] }[];
}

/** A pool of checking threads: `check` is an EntryChecker; `prefetch` starts on windows expected later; `close` ends the threads (optional: idle threads never keep the process alive). */
export interface CheckerPool {
  check: EntryChecker;
  prefetch(windows: readonly (readonly string[])[]): void;
  close(): Promise<void>;
}

/** A window checked ahead: its texts, its shared claim, and its checks once a thread has them. */
interface Prefetched {
  id: number;
  index: number;
  texts: readonly string[];
  checks: Promise<EntryCheck[]>;
  resolve(checks: EntryCheck[]): void;
  reject(error: Error): void;
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
  /** Prefetched windows by their first text, by id, and how many replies each worker still owes for them. */
  const ahead = new Map<string, Prefetched>();
  const aheadById = new Map<number, Prefetched>();
  const expectedList: Prefetched[] = [];
  const owed = new Map<Worker, number>();
  let claims = new Int32Array(new SharedArrayBuffer(0));
  let serial = 0;
  let stealing = false;
  let closed = false;
  const settleRef = (worker: Worker) => (out.get(worker)?.size === 0 && !owed.get(worker) ? worker.unref() : worker.ref());
  const send = (worker: Worker, job: Job) => {
    out.get(worker)!.set(job.id, job);
    worker.ref();
    const request: CheckRequest = { id: job.id, texts: job.entries.map((_, i) => job.texts[i] ?? null), untexted: job.entries.filter((_, i) => !job.texts[i]) };
    worker.postMessage(request);
  };
  const feed = () => {
    for (const [worker, jobs] of out) while (jobs.size < AHEAD && queue.length > 0) send(worker, queue.shift()!);
  };
  // The calling thread's turn: one window from the back (the queue's, else the prefetched windows' not yet claimed), then back to the event loop (replies, the chain check) before the next.
  const steal = () => {
    const job = closed ? undefined : queue.pop();
    const early = job || closed ? undefined : claimFromBack();
    if ((!job && !early) || !local) {
      stealing = false;
      return;
    }
    if (job) local(job.entries, job.texts).then(job.resolve, job.reject);
    // The same texts a worker parses: checked by the parse they are exactly the entries a `check` of them names.
    else local(early!.texts.map((text) => JSON.parse(text) as Entry), early!.texts).then(early!.resolve, early!.reject);
    setImmediate(steal);
  };
  // Workers claim from the front in order, so once a claim from the back fails, every window before it is claimed too.
  let back = -1;
  const claimFromBack = (): Prefetched | undefined => {
    if (back < 0) return undefined;
    if (Atomics.compareExchange(claims, back, 0, 1) !== 0) {
      back = -1;
      return undefined;
    }
    return expectedList[(back -= 1) + 1];
  };
  const start = () => {
    const worker = new Worker(script);
    worker.unref();
    out.set(worker, new Map());
    worker.on("message", (reply: CheckReply) => {
      const early = aheadById.get(reply.id);
      if (early) {
        owed.set(worker, owed.get(worker)! - 1);
        settleRef(worker);
        if (reply.checks) early.resolve(reply.checks);
        else if (!reply.skipped) early.reject(new Error(`a verify worker failed: ${reply.error ?? "no reply"}`));
        return;
      }
      const jobs = out.get(worker);
      const job = jobs?.get(reply.id);
      if (!jobs || !job) return;
      jobs.delete(reply.id);
      settleRef(worker);
      if (reply.checks) job.resolve(reply.checks);
      else job.reject(new Error(`a verify worker failed: ${reply.error ?? "no reply"}`));
      feed();
    });
    const fail = (error: Error) => {
      const jobs = out.get(worker);
      if (!jobs) return;
      out.delete(worker);
      for (const job of jobs.values()) job.reject(error);
      // What it had claimed is never answered: a `check` of those texts checks them afresh.
      if (owed.get(worker)) for (const early of aheadById.values()) early.reject(error);
      // No thread left to check what waits: it fails with this one.
      if (out.size === 0 && !local) for (const job of queue.splice(0)) job.reject(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a verify worker exited (code ${code})`)));
  };
  for (let i = 0; i < (local ? Math.max(0, threads) : Math.max(1, threads)); i += 1) start();
  const prefetch = (windows: readonly (readonly string[])[]) => {
    const expected = windows.filter((texts) => texts.length > 0);
    if (out.size === 0 || expected.length === 0 || claims.length > 0) return;
    claims = new Int32Array(new SharedArrayBuffer(4 * expected.length));
    back = expected.length - 1;
    const request: PrefetchRequest = { claims, windows: [] };
    expected.forEach((texts, index) => {
      let settle!: Pick<Prefetched, "resolve" | "reject">;
      const checks = new Promise<EntryCheck[]>((resolve, reject) => (settle = { resolve, reject }));
      checks.catch(() => undefined); // a failed prefetch only sends its window to be checked afresh
      const early: Prefetched = { id: (serial += 1), index, texts, checks, ...settle };
      ahead.set(texts[0]!, early);
      aheadById.set(early.id, early);
      expectedList.push(early);
      request.windows.push({ id: early.id, texts: [...texts] });
    });
    for (const worker of out.keys()) {
      owed.set(worker, expected.length);
      settleRef(worker);
      worker.postMessage(request);
    }
  };
  /** The checks of a window prefetched with exactly `texts`, or undefined. */
  const prefetched = (texts: readonly (string | null)[]): Promise<EntryCheck[]> | undefined => {
    const early = typeof texts[0] === "string" ? ahead.get(texts[0]) : undefined;
    if (!early || early.texts.length !== texts.length || !early.texts.every((text, i) => text === texts[i])) return undefined;
    ahead.delete(texts[0]!);
    return early.checks;
  };
  const check: EntryChecker = (entries, texts = []) => {
    const early = entries.length === texts.length ? prefetched(texts) : undefined;
    if (!early) return checkNow(entries, texts);
    if (local && !stealing && back >= 0) {
      stealing = true;
      setImmediate(steal);
    }
    return early.catch(() => checkNow(entries, texts));
  };
  const checkNow: EntryChecker = (entries, texts = []) =>
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
    prefetch,
    close: async () => {
      closed = true;
      queue.length = 0;
      // Not awaited: a worker's terminate() at times never settles (seen in about 1 of 16 refuted
      // exports, before decision 0429 too), and a process whose last await never settles exits 13.
      for (const worker of out.keys()) void worker.terminate();
    },
  };
}
