/** C2SP tlog-cosignature (Ed25519, type 0x04): the signed message, the specification's example line, and refusals. */
import { describe, expect, it } from "vitest";
import {
  cosignatureSigner,
  cosignatureTimestamp,
  cosignatureVerifier,
  cosignatureVerifierFromKey,
  cosignedMessage,
  ed25519,
  ed25519NoteSigner,
  ed25519NoteVerifier,
  formatVerifierKey,
  openNote,
  parseNote,
  signNoteText,
  SIG_TYPE_COSIGNATURE,
  SIG_TYPE_ED25519,
  noteKeyId,
} from "../../../../src/protocol/index.js";
import { refusalCode } from "../../../support/refused.js";

const CHECKPOINT = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
const seed = (byte: number) => new Uint8Array(32).fill(byte);

describe("cosignatures", () => {
  it("sign the message the specification spells out", () => {
    expect(new TextDecoder().decode(cosignedMessage(CHECKPOINT, 1679315147))).toBe(
      "cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
    );
  });

  it("read the timestamp of the specification's example cosignature line", () => {
    const line =
      "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n";
    const [sig] = parseNote(`${CHECKPOINT}\n${line}`).signatures;
    expect(cosignatureTimestamp(sig!.signature)).toBe(1679315147);
  });

  it("verify beside the log's own signature, each with its own key ID", async () => {
    const impl = await ed25519();
    const log = await impl.signer(seed(1));
    const witness = await impl.signer(seed(2));
    const logSigner = ed25519NoteSigner("example.com/behind-the-sofa", log);
    const cosigner = cosignatureSigner("witness.example/w1", witness, 1700000000);
    expect(cosigner.keyId).toBe(noteKeyId("witness.example/w1", SIG_TYPE_COSIGNATURE, witness.publicKey));
    expect(cosigner.keyId).not.toBe(noteKeyId("witness.example/w1", SIG_TYPE_ED25519, witness.publicKey));
    const note = await signNoteText(CHECKPOINT, [logSigner, cosigner]);
    const vkey = formatVerifierKey("witness.example/w1", SIG_TYPE_COSIGNATURE, witness.publicKey);
    const opened = await openNote(note, [
      ed25519NoteVerifier("example.com/behind-the-sofa", log.publicKey),
      cosignatureVerifierFromKey(vkey),
    ]);
    expect(opened.verified.map((s) => s.name)).toEqual(["example.com/behind-the-sofa", "witness.example/w1"]);
    expect(cosignatureTimestamp(opened.verified[1]!.signature)).toBe(1700000000);
    const onlyWitness = await openNote(note, [cosignatureVerifier("witness.example/w1", witness.publicKey)]);
    expect(onlyWitness.unverified.map((s) => s.name)).toEqual(["example.com/behind-the-sofa"]);
  });

  describe("when a cosignature does not hold", () => {
    it("refuses another time, another checkpoint, or a plain Ed25519 signature by the same key, with E_BAD_SIGNATURE", async () => {
      const impl = await ed25519();
      const witness = await impl.signer(seed(2));
      const verifier = cosignatureVerifier("witness.example/w1", witness.publicKey);
      const note = await signNoteText(CHECKPOINT, [cosignatureSigner("witness.example/w1", witness, 1700000000)]);
      const [sig] = parseNote(note).signatures;
      const retimed = sig!.signature.slice();
      retimed[7]! ^= 1;
      expect(await verifier.verify(new TextEncoder().encode(CHECKPOINT), retimed)).toBe(false);
      expect(await refusalCode(() => openNote(note.replace("20852163", "20852164"), [verifier]))).toBe(
        "E_BAD_SIGNATURE",
      );
      const asPlain = await signNoteText(CHECKPOINT, [
        { ...ed25519NoteSigner("witness.example/w1", witness), keyId: verifier.keyId },
      ]);
      expect(await refusalCode(() => openNote(asPlain, [verifier]))).toBe("E_BAD_SIGNATURE");
    });

    it("reads no timestamp from bytes of the wrong length or past 2^53 − 1", () => {
      expect(cosignatureTimestamp(new Uint8Array(71))).toBeUndefined();
      const far = new Uint8Array(72);
      far[0] = 0x7f;
      expect(cosignatureTimestamp(far)).toBeUndefined();
      const then = new Uint8Array(72);
      then.set([0x64, 0x18, 0x50, 0xcb], 4);
      expect(cosignatureTimestamp(then)).toBe(1679315147);
    });

    it("refuses a negative or fractional time, and a verifier key of another type, with E_SCHEMA", async () => {
      const witness = await (await ed25519()).signer(seed(2));
      expect(await refusalCode(() => cosignedMessage(CHECKPOINT, -1))).toBe("E_SCHEMA");
      expect(await refusalCode(() => cosignatureSigner("w", witness, 1.5))).toBe("E_SCHEMA");
      expect(
        await refusalCode(() =>
          cosignatureVerifierFromKey(formatVerifierKey("w", SIG_TYPE_ED25519, witness.publicKey)),
        ),
      ).toBe("E_SCHEMA");
    });
  });
});
