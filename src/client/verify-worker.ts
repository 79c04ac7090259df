/**
 * The worker thread of verify-pool.ts: runs the protocol's own checker (leaf hashes and signature
 * checks), with Node's native SHA-256 for the leaves, on each window of entries the pool sends (as
 * their canonical texts where the export gave them, else as objects), and posts the checks back by id.
 * Bundled to dist/verify-worker.mjs beside the CLI (scripts/build-cli.mjs).
 */
import { parentPort } from "node:worker_threads";
import { entryChecker, type Entry } from "../protocol/index.js";
import { nodeSha256 } from "./node-sha256.js";
import type { CheckReply, CheckRequest } from "./verify-pool.js";

const port = parentPort;
if (!port) throw new Error("verify-worker.ts runs only as a worker thread (verify-pool.ts starts it)");
const checkEntries = entryChecker(nodeSha256);
// The main thread's own parsed export, not wire input: each text is exactly canonicalize(entry) of
// an entry it parsed with the schema (export.ts checks that), so the text's JSON value is that entry.
port.on("message", (message: CheckRequest) => {
  const reply = (body: Omit<CheckReply, "id">) => port.postMessage({ id: message.id, ...body });
  let next = 0;
  const entries = message.texts.map((text) => (text === null ? message.untexted[next++]! : (JSON.parse(text) as Entry)));
  checkEntries(entries, message.texts).then(
    (checks) => reply({ checks }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});
