/**
 * C2SP tlog-witness wire bodies: the `add-checkpoint` request (an `old <size>` line, up to 63
 * base64 consistency-proof lines, an empty line, then the signed checkpoint note) and the
 * `text/x.tlog.size` body of a 409 answer. Judging a request is the witness's job, not this file's.
 */
import { TrestleError } from "../errors.js";
import { fromBase64, toBase64 } from "./base64.js";
import { HASH_BYTES } from "./merkle.js";
import { MAX_PROOF_HASHES } from "./proofs.js";

/** The parts of an add-checkpoint request; `note` is the signed checkpoint, still unverified. */
export interface AddCheckpointRequest {
  readonly oldSize: number;
  readonly proof: readonly Uint8Array[];
  readonly note: string;
}

/** The request body: `old <size>\n`, one base64 hash per line, an empty line, then the note. */
export function formatAddCheckpoint(request: AddCheckpointRequest): string {
  const oldSize = formatSize(request.oldSize);
  if (request.proof.length > MAX_PROOF_HASHES || request.proof.some((h) => h.length !== HASH_BYTES)) {
    throw new TrestleError("E_SCHEMA", "a consistency proof is at most 63 hashes of 32 bytes");
  }
  return `old ${oldSize}\n${request.proof.map((h) => `${toBase64(h)}\n`).join("")}\n${request.note}`;
}

/** The parts of a request body; E_SCHEMA when a line is malformed, E_TOO_LARGE past 63 proof lines. */
export function parseAddCheckpoint(body: string): AddCheckpointRequest {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    const end = body.indexOf("\n", at);
    if (end < 0) throw new TrestleError("E_SCHEMA", "an add-checkpoint body has an empty line before its checkpoint");
    const line = body.slice(at, end);
    at = end + 1;
    if (line === "") break;
    if (lines.length > MAX_PROOF_HASHES) throw new TrestleError("E_TOO_LARGE", "at most 63 consistency proof lines");
    lines.push(line);
  }
  const [oldLine, ...proofLines] = lines;
  const old = /^old (0|[1-9][0-9]*)$/.exec(oldLine ?? "");
  if (!old) throw new TrestleError("E_SCHEMA", "an add-checkpoint body starts with `old <size>`");
  const proof = proofLines.map((line) => {
    const hash = fromBase64(line);
    if (hash.length !== HASH_BYTES)
      throw new TrestleError("E_SCHEMA", "a consistency proof line is the base64 of 32 bytes");
    return hash;
  });
  return { oldSize: parseSize(old[1]!), proof, note: body.slice(at) };
}

/** The `text/x.tlog.size` body a witness answers a stale old size with: the size it holds, in decimal, and a newline. */
export function formatTreeSizeBody(size: number): string {
  return `${formatSize(size)}\n`;
}

/** The size in a `text/x.tlog.size` body; E_SCHEMA for anything but one decimal line. */
export function parseTreeSizeBody(body: string): number {
  const match = /^(0|[1-9][0-9]*)\n$/.exec(body);
  if (!match) throw new TrestleError("E_SCHEMA", "a tree size body is one decimal line");
  return parseSize(match[1]!);
}

function formatSize(size: number): string {
  if (!Number.isSafeInteger(size) || size < 0)
    throw new TrestleError("E_SCHEMA", "a tree size is a non-negative safe integer");
  return String(size);
}

function parseSize(digits: string): number {
  const size = Number(digits);
  if (!Number.isSafeInteger(size)) throw new TrestleError("E_TOO_LARGE", "a tree size past 2^53 − 1");
  return size;
}
