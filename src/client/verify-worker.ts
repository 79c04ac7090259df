/**
 * The worker thread of verify-pool.ts: runs the protocol's own checker (leaf hashes and signature
 * checks), with Node's native SHA-256 for the leaves and node:crypto's Ed25519 (node-ed25519.ts) for
 * the signatures, on each window of entries the pool sends (as
 * their canonical texts where the export gave them, else as objects), and posts the checks back by id.
 * Bundled to dist/verify-worker.mjs beside the CLI (scripts/build-cli.mjs).
 */
import { parentPort } from "node:worker_threads";
import { entryChecker, type Entry } from "../protocol/index.js";
import { nodeEd25519 } from "./node-ed25519.js";
import { nodeSha256 } from "./node-sha256.js";
import type { CheckReply, CheckRequest } from "./verify-pool.js";

const port = parentPort;
if (!port) throw new Error("verify-worker.ts runs only as a worker thread (verify-pool.ts starts it)");
const checkEntries = entryChecker(nodeSha256, nodeEd25519);
// The main thread's own parsed export, not wire input: each text is exactly canonicalize(entry) of
// an entry it parsed with the schema (export.ts checks that), so the text's JSON value is that entry.
// Windows are checked one after another (each one's signatures still all at once): the pool
// posts every window up front, and checking them all together only grows the heap to collect.
let previous: Promise<void> = Promise.resolve();
port.on("message", (message: CheckRequest) => {
  previous = previous.then(() => checkWindow(message));
});

/** Checks one window and posts its checks, or why it could not check them; never rejects, so the next window always runs. */
async function checkWindow(message: CheckRequest): Promise<void> {
  const reply = (body: Omit<CheckReply, "id">) => port!.postMessage({ id: message.id, ...body });
  try {
    let next = 0;
    const entries = message.texts.map((text) =>
      text === null ? message.untexted[next++]! : (JSON.parse(text) as Entry),
    );
    reply({ checks: await checkEntries(entries, message.texts) });
  } catch (error) {
    reply({ error: error instanceof Error ? error.message : String(error) });
  }
}
