/** The shared golden vectors, run again inside workerd: WebCrypto Ed25519 and canonical JSON agree here too. */
import { describe, expect, it } from "vitest";
import { canonicalBytes, ed25519, fromHex, nobleEd25519, toHex, utf8 } from "../../src/protocol/index.js";
import rfc8032 from "../vectors/ed25519-rfc8032.json";
import wycheproof from "../vectors/ed25519-wycheproof.json";

const jcsInputs = import.meta.glob("../vectors/jcs/input/*.json", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const jcsOutputs = import.meta.glob("../vectors/jcs/output/*.json", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

describe("golden vectors in workerd", () => {
  it("uses WebCrypto Ed25519 here", async () => {
    expect((await ed25519()).name).toBe("webcrypto");
  });

  it("reproduces every RFC 8032 vector with WebCrypto and noble", async () => {
    const web = await ed25519();
    for (const v of rfc8032) {
      for (const impl of [web, nobleEd25519]) {
        const signer = await impl.signer(fromHex(v.secret_key));
        expect(toHex(signer.publicKey)).toBe(v.public_key);
        expect(toHex(await signer.sign(fromHex(v.message)))).toBe(v.signature);
      }
    }
  });

  it("agrees with every Wycheproof verdict in both implementations", async () => {
    const web = await ed25519();
    let checked = 0;
    for (const group of wycheproof.testGroups) {
      const key = fromHex(group.publicKey.pk);
      for (const test of group.tests) {
        const expected = test.result === "valid";
        const sig = fromHex(test.sig);
        const msg = fromHex(test.msg);
        const run = (impl: typeof web) => impl.verify(key, msg, sig).catch(() => false);
        expect(await run(web), `tcId ${test.tcId}`).toBe(expected);
        expect(await run(nobleEd25519), `tcId ${test.tcId}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBe(wycheproof.numberOfTests);
  });

  it("canonicalizes every integer-only RFC 8785 vector byte for byte", () => {
    const names = Object.keys(jcsInputs).map((p) => p.split("/").pop()!);
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) {
      const input = JSON.parse(jcsInputs[`../vectors/jcs/input/${name}`]!);
      const expected = jcsOutputs[`../vectors/jcs/output/${name}`]!;
      if (name === "values.json") {
        expect(() => canonicalBytes(input)).toThrow(expect.objectContaining({ code: "E_NOT_CANONICAL" }));
      } else {
        expect(toHex(canonicalBytes(input))).toBe(toHex(utf8(expected)));
      }
    }
  });
});
