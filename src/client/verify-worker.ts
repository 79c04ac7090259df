/**
 * The worker thread of verify-pool.ts: runs the protocol's own checker (leaf hashes and signature
 * checks), with Node's native SHA-256 for the leaves, on each window of entries (and their
 * canonical texts, where the export gave them) the pool sends, and posts the checks back by id.
 * Bundled to dist/verify-worker.mjs beside the CLI (scripts/build-cli.mjs).
 */
import { parentPort } from "node:worker_threads";
import { entryChecker, type Entry } from "../protocol/index.js";
import { nodeSha256 } from "./node-sha256.js";
import type { CheckReply } from "./verify-pool.js";

const port = parentPort;
if (!port) throw new Error("verify-worker.ts runs only as a worker thread (verify-pool.ts starts it)");
const checkEntries = entryChecker(nodeSha256);
// The entries and texts are the main thread's own parsed export, cloned by postMessage: not wire input.
port.on("message", (message: { id: number; entries: Entry[]; texts?: (string | null)[] }) => {
  const reply = (body: Omit<CheckReply, "id">) => port.postMessage({ id: message.id, ...body });
  checkEntries(message.entries, message.texts).then(
    (checks) => reply({ checks }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});
