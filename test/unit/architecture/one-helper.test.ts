/**
 * One helper per pattern in the relay's source (issue 38): a Durable Object is reached through
 * durable-objects/stubs.ts, a socket's attachment through sockets/attachment.ts, an `Authorization:
 * Trestle` header is made by authorizationHeader, and a seat's signature falls back to the keys
 * revoked for it only through requireSigned (or, for a draft's signatures, in writes.ts). Each
 * rule names the files allowed to spell the pattern, so a new copy fails here.
 */
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../../support/source-tree.js";

const files = sourceFiles();

/** The files whose code matches `pattern`. */
const spelling = (pattern: RegExp) => files.filter((f) => pattern.test(f.code)).map((f) => f.path);

describe("one helper per pattern", () => {
  it("reaches every Durable Object by name in durable-objects/stubs.ts (the witness Worker its own)", () => {
    expect(spelling(/\.(getByName|idFromName)\(/)).toEqual(["durable-objects/stubs.ts", "worker/witness/index.ts"]);
  });

  it("has tests reach a Durable Object by name with getByName, never get(idFromName(…))", () => {
    const tests = sourceFiles(["test"]).filter((f) => /\.get\(\s*[\w.]+\.idFromName\(/.test(f.code));
    expect(tests.map((f) => f.path)).toEqual([]);
  });

  it("reads and writes a socket's attachment only in durable-objects/table/sockets/attachment.ts", () => {
    expect(spelling(/\b(de)?serializeAttachment\(/)).toEqual(["durable-objects/table/sockets/attachment.ts"]);
  });

  it("makes an Authorization: Trestle header only in authorizationHeader", () => {
    expect(spelling(/`Trestle \$\{/)).toEqual(["src/protocol/requests/requests.ts"]);
  });

  it("tries a seat's revoked keys only through requireSigned, or after a draft's signatures fail in writes.ts", () => {
    expect(spelling(/\brefuseRevokedSigner\(/)).toEqual([
      "durable-objects/table/signing/revoked-signer.ts",
      "durable-objects/table/writing/writes.ts",
    ]);
  });
});
