/** Ed25519 sign and verify: WebCrypto against the @noble/ed25519 fallback (docs/BENCHMARKS.md). */
import { bench, describe } from "vitest";
import { nobleEd25519, sha256, utf8, webCryptoEd25519, type Ed25519, type Signer } from "../../src/protocol/index.js";

const web = (await webCryptoEd25519())!;
const message = utf8("trestle/0.1 entry\n" + "x".repeat(200));
const seed = sha256(utf8("bench"));
const signers = new Map<Ed25519, Signer>();
for (const impl of [web, nobleEd25519]) signers.set(impl, await impl.signer(seed));
const signature = await signers.get(web)!.sign(message);
const publicKey = signers.get(web)!.publicKey;

describe("ed25519 verify (one 219-byte statement)", () => {
  bench("webcrypto", async () => {
    await web.verify(publicKey, message, signature);
  });
  bench("noble", async () => {
    await nobleEd25519.verify(publicKey, message, signature);
  });
});

describe("ed25519 sign (one 219-byte statement)", () => {
  bench("webcrypto", async () => {
    await signers.get(web)!.sign(message);
  });
  bench("noble", async () => {
    await signers.get(nobleEd25519)!.sign(message);
  });
});
