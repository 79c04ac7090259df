/** A log in memory for witness tests: its verifier key, its signed checkpoints and add-checkpoint bodies; `fork` makes other leaves under the same origin and key. */
import {
  checkpointOf,
  consistencyProof,
  ed25519,
  ed25519NoteSigner,
  formatAddCheckpoint,
  formatCheckpoint,
  formatVerifierKey,
  leafHash,
  memoryHashSource,
  rootOfLeafHashes,
  signNoteText,
  SIG_TYPE_ED25519,
} from "../../src/protocol/index.js";

/** A test log: checkpoints of its first `size` leaves, signed by its key. */
export interface TestLog {
  readonly origin: string;
  /** The log's Ed25519 verifier key (type 0x01), named by its origin. */
  readonly vkey: string;
  /** `ORIGIN=VKEY`, as a witness is configured with it. */
  readonly entry: string;
  /** A checkpoint text signed by the log's key, whatever it says. */
  sign(text: string): Promise<string>;
  /** The signed checkpoint note of the tree of `size` leaves. */
  note(size: number): Promise<string>;
  /** An add-checkpoint body from `oldSize` to `size`, with this log's consistency proof (none when oldSize > size). */
  body(oldSize: number, size: number): Promise<string>;
}

/** A log of 64 leaves `<fork>entry <i>` under `origin`, signed with the key of seed byte `seed`. */
export async function testLog(origin: string, seed: number, fork = ""): Promise<TestLog> {
  const signer = await (await ed25519()).signer(new Uint8Array(32).fill(seed));
  const noteSigner = ed25519NoteSigner(origin, signer);
  const leaves = Array.from({ length: 64 }, (_, i) => leafHash(new TextEncoder().encode(`${fork}entry ${i}`)));
  const source = memoryHashSource(leaves);
  const note = (size: number) =>
    signNoteText(formatCheckpoint(checkpointOf(origin, size, rootOfLeafHashes(leaves.slice(0, size)))), [noteSigner]);
  const vkey = formatVerifierKey(origin, SIG_TYPE_ED25519, signer.publicKey);
  return {
    origin,
    vkey,
    entry: `${origin}=${vkey}`,
    sign: (text) => signNoteText(text, [noteSigner]),
    note,
    async body(oldSize, size) {
      return formatAddCheckpoint({
        oldSize,
        proof: oldSize <= size ? consistencyProof(oldSize, size, source) : [],
        note: await note(size),
      });
    },
  };
}
