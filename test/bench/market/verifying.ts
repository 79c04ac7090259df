/**
 * How the market bench's agents and checks verify what they read (decision 0535): each entry's
 * leaf hash and recorded signatures (the protocol's own `checkEntries`, with Node's native SHA-256
 * and Ed25519) on worker threads of one pool (src/client/verify-pool.ts), and the links with Node's
 * SHA-256; the chain, the nonces and the policy replay stay on the calling thread, in ledger order.
 * Every entry is still verified by every member that reads it; only the thread that runs the
 * order-free checks changes, as `trestle verify` spreads an export's.
 */
import { checkerPool, type CheckerPool } from "../../../src/client/verify-pool.js";
import { nodeSha256 } from "../../../src/client/node-sha256.js";
import type { EntryChecker, HashFunction } from "../../../src/protocol/index.js";

/** What a reader passes to LiveTranscript and verifyExportText: the pool's checker and the links' hash. */
export interface Verifying {
  checker: EntryChecker;
  sha256: HashFunction;
}

/** The worker script: bundled by scripts/bench.mjs beside dist/bench.mjs. */
const SCRIPT = new URL("./bench-verify-worker.mjs", import.meta.url);

/** A pool of `threads` checking threads (none on the calling thread, which has the agents' own work), and how to end it. */
export function verifyingPool(threads: number): { verifying: Verifying; pool: CheckerPool } {
  const pool = checkerPool(SCRIPT, threads);
  return { verifying: { checker: pool.check, sha256: nodeSha256 }, pool };
}
