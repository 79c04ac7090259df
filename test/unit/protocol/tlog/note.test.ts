/**
 * C2SP signed-note: the specification's example and Go's note test vectors (x/mod/sumdb/note),
 * key IDs and verifier keys, unknown signatures set aside, and every malformed note with its code.
 */
import { describe, expect, it } from "vitest";
import {
  ed25519,
  ed25519NoteSigner,
  ed25519NoteVerifier,
  ed25519VerifierFromKey,
  formatVerifierKey,
  fromBase64,
  keyIdHex,
  noteKeyId,
  openNote,
  parseNote,
  parseVerifierKey,
  signNoteText,
  SIG_TYPE_ED25519,
  signingBytes,
  utf8,
  type NoteSigner,
} from "../../../../src/protocol/index.js";
import { refusalCode } from "../../../support/refused.js";

// signed-note.md §Verifier keys, Example.
const C2SP_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const C2SP_NOTE =
  "This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

// golang.org/x/mod/sumdb/note, note_test.go: TestSign and TestOpen.
const PETER_SEED = fromBase64("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz").subarray(1);
const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const PETER_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG =
  "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

async function peterSigner(): Promise<NoteSigner> {
  return ed25519NoteSigner("PeterNeumann", await (await ed25519()).signer(PETER_SEED));
}

describe("signed notes", () => {
  it("open the signed-note example with its verifier key", async () => {
    const opened = await openNote(C2SP_NOTE, [ed25519VerifierFromKey(C2SP_VKEY)]);
    expect(opened.text).toBe("This is an example message.\n");
    expect(opened.verified.map((s) => [s.name, keyIdHex(s.keyId)])).toEqual([["example.com/foo", "530d903a"]]);
  });

  it("sign exactly as Go's note.Sign does, byte for byte", async () => {
    const signer = await peterSigner();
    expect(keyIdHex(signer.keyId)).toBe("c74f20a3");
    expect(await signNoteText(PETER_TEXT, [signer])).toBe(`${PETER_TEXT}\n${PETER_SIG}`);
  });

  it("write verifier keys as Go's note.NewVerifier reads them", async () => {
    const signer = await (await ed25519()).signer(PETER_SEED);
    expect(formatVerifierKey("PeterNeumann", SIG_TYPE_ED25519, signer.publicKey)).toBe(PETER_VKEY);
    const key = parseVerifierKey(PETER_VKEY);
    expect([key.name, keyIdHex(key.keyId), key.type]).toEqual(["PeterNeumann", "c74f20a3", 1]);
    expect(noteKeyId("PeterNeumann", 1, signer.publicKey)).toBe(0xc74f20a3);
  });

  it("read back a verifier key whose base64 holds a plus sign, as Go's note.NewVerifier does (it splits at the first two)", async () => {
    const signer = await (await ed25519()).signer(new Uint8Array(32).fill(0x2a));
    const vkey = formatVerifierKey("witness.test/w1", SIG_TYPE_ED25519, signer.publicKey);
    expect(vkey.split("+").length).toBeGreaterThan(3);
    expect(parseVerifierKey(vkey).publicKey).toEqual(signer.publicKey);
  });

  it("verify the known signature and set the unknown one aside, as Go's TestOpen does", async () => {
    const opened = await openNote(`${PETER_TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [ed25519VerifierFromKey(PETER_VKEY)]);
    expect(opened.verified.map((s) => s.name)).toEqual(["PeterNeumann"]);
    expect(opened.unverified.map((s) => s.name)).toEqual(["EnochRoot"]);
    const both = await openNote(`${PETER_TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [
      ed25519VerifierFromKey(PETER_VKEY),
      ed25519VerifierFromKey(ENOCH_VKEY),
    ]);
    expect(both.verified.map((s) => s.name)).toEqual(["PeterNeumann", "EnochRoot"]);
  });

  it("keep a repeated signature once", async () => {
    const opened = await openNote(`${PETER_TEXT}\n${PETER_SIG}${PETER_SIG}${ENOCH_SIG}${ENOCH_SIG}`, [
      ed25519VerifierFromKey(PETER_VKEY),
    ]);
    expect(opened.verified).toHaveLength(1);
    expect(opened.unverified).toHaveLength(1);
  });

  it("split text from signatures at the last blank line", () => {
    const parsed = parseNote(`a\n\nb\n\n${PETER_SIG}`);
    expect(parsed.text).toBe("a\n\nb\n");
    expect(parsed.signatures).toHaveLength(1);
  });
});

describe("when a note does not verify", () => {
  const peter = () => [ed25519VerifierFromKey(PETER_VKEY)];

  it("refuses a changed text with E_BAD_SIGNATURE", async () => {
    expect(await refusalCode(() => openNote(`${PETER_TEXT.replace("answer", "Answer")}\n${PETER_SIG}`, peter()))).toBe(
      "E_BAD_SIGNATURE",
    );
  });

  it("refuses a known key's bad signature even beside a good one, with E_BAD_SIGNATURE", async () => {
    const bad = PETER_SIG.replace("x08go", "x08gp");
    expect(await refusalCode(() => openNote(`${PETER_TEXT}\n${bad}`, peter()))).toBe("E_BAD_SIGNATURE");
    const c2sp = ed25519VerifierFromKey(C2SP_VKEY);
    expect(
      await refusalCode(() =>
        openNote(
          `${PETER_TEXT}\n${PETER_SIG}— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n`,
          [...peter(), c2sp],
        ),
      ),
    ).toBe("E_BAD_SIGNATURE");
  });

  it("refuses a note with no trusted signature, with E_BAD_SIGNATURE", async () => {
    expect(await refusalCode(() => openNote(`${PETER_TEXT}\n${ENOCH_SIG}`, peter()))).toBe("E_BAD_SIGNATURE");
    expect(await refusalCode(() => openNote(`${PETER_TEXT}\n${PETER_SIG}`, []))).toBe("E_BAD_SIGNATURE");
  });

  it("ignores a signature sharing the name but not the key ID, or the key ID but not the name", async () => {
    const sameName = ed25519NoteVerifier("PeterNeumann", parseVerifierKey(ENOCH_VKEY).publicKey);
    expect(await refusalCode(() => openNote(`${PETER_TEXT}\n${PETER_SIG}`, [sameName]))).toBe("E_BAD_SIGNATURE");
    const opened = await openNote(
      `${PETER_TEXT}\n${PETER_SIG}— PeterNeumannX x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      peter(),
    );
    expect(opened.unverified.map((s) => s.name)).toEqual(["PeterNeumannX"]);
  });
});

describe("when a note is malformed", () => {
  const cases: [string, string, string][] = [
    ["no blank line", `${PETER_TEXT}${PETER_SIG}`, "E_SCHEMA"],
    ["no signature line", `${PETER_TEXT}\n`, "E_SCHEMA"],
    ["a last line without newline", `${PETER_TEXT}\n${PETER_SIG.slice(0, -1)}`, "E_SCHEMA"],
    ["a hyphen for the em dash", `${PETER_TEXT}\n${PETER_SIG.replace("—", "-")}`, "E_SCHEMA"],
    ["a signature line with no base64", `${PETER_TEXT}\n— PeterNeumann\n`, "E_SCHEMA"],
    ["a name with a plus", `${PETER_TEXT}\n${PETER_SIG.replace("PeterNeumann", "Peter+Neumann")}`, "E_SCHEMA"],
    ["a signature of four bytes", `${PETER_TEXT}\n— PeterNeumann x08gow==\n`, "E_SCHEMA"],
    ["base64 without padding", `${PETER_TEXT}\n${PETER_SIG.replace("=\n", "\n")}`, "E_SCHEMA"],
    ["a control character", `tab\there\n\n${PETER_SIG}`, "E_SCHEMA"],
    ["a carriage return", `line\r\n\n${PETER_SIG}`, "E_SCHEMA"],
    ["a lone surrogate", `bad \ud800\n\n${PETER_SIG}`, "E_SCHEMA"],
    ["33 signature lines", `${PETER_TEXT}\n${ENOCH_SIG.repeat(33)}`, "E_TOO_LARGE"],
    ["more than 64 KiB", `${"a".repeat(65536)}\n\n${PETER_SIG}`, "E_TOO_LARGE"],
  ];
  for (const [what, note, code] of cases) {
    it(`refuses ${what} with ${code}`, async () => {
      expect(await refusalCode(() => openNote(note, [ed25519VerifierFromKey(PETER_VKEY)]))).toBe(code);
    });
  }

  it("refuses malformed verifier keys with E_SCHEMA", async () => {
    for (const vkey of [
      "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
      "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
      "PeterNeumann+c74f20a3",
      "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
      "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    ]) {
      expect(await refusalCode(() => ed25519VerifierFromKey(vkey)), vkey).toBe("E_SCHEMA");
    }
  });

  it("refuses to sign a text without its final newline, with E_SCHEMA", async () => {
    expect(await refusalCode(async () => signNoteText("no newline", [await peterSigner()]))).toBe("E_SCHEMA");
  });

  it("refuses to sign a text that would read as a trestle statement or a cosignature, with E_SCHEMA", async () => {
    const signer = await peterSigner();
    const statement = new TextDecoder().decode(signingBytes("head", { a: 1 }));
    expect(await refusalCode(() => signer.sign(utf8(`${statement}\n`)))).toBe("E_SCHEMA");
    expect(await refusalCode(() => signer.sign(utf8("cosignature/v1\ntime 1\nx\n")))).toBe("E_SCHEMA");
  });
});
