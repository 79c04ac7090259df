/**
 * The worker thread of verify-pool.ts: runs the protocol's own `checkEntries` (leaf hashes and
 * signature checks) on each window of entries the pool sends, and posts the checks back by id.
 * Bundled to dist/verify-worker.mjs beside the CLI (scripts/build-cli.mjs).
 */
import { parentPort } from "node:worker_threads";
import { checkEntries, type Entry } from "../protocol/index.js";
import type { CheckReply } from "./verify-pool.js";

const port = parentPort;
if (!port) throw new Error("verify-worker.ts runs only as a worker thread (verify-pool.ts starts it)");
// The entries are the main thread's own parsed entries, cloned by postMessage: not wire input.
port.on("message", (message: { id: number; entries: Entry[] }) => {
  const reply = (body: Omit<CheckReply, "id">) => port.postMessage({ id: message.id, ...body });
  checkEntries(message.entries).then(
    (checks) => reply({ checks }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});
