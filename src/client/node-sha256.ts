/**
 * Node's native SHA-256 (OpenSSL, node:crypto) as the protocol's `HashFunction`: what the Node client
 * passes where the protocol takes a hash function (a ledger's leaves and links when verifying an
 * export), so src/protocol stays free of Node APIs and hashes in JavaScript everywhere else.
 */
import { createHash } from "node:crypto";
import type { HashFunction } from "../protocol/index.js";

/** SHA-256 of `bytes` through node:crypto: the same 32 bytes as the protocol's `sha256`. */
export const nodeSha256: HashFunction = (bytes) => createHash("sha256").update(bytes).digest();
