/**
 * src/protocol is pure (STYLE.md habit 1): no Node or Workers globals, no network, no clock, no
 * randomness, no logging. This scans every source file for the tokens that would break that, and
 * src/text's too (the shared words, which the Worker's chat code uses).
 */
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../../support/source-tree.js";

/** Each forbidden token, and what it would bring in. */
const FORBIDDEN: [RegExp, string][] = [
  [/\bprocess\b/, "the Node process global"],
  [/\bBuffer\b/, "Node's Buffer (use Uint8Array)"],
  [/\brequire\s*\(/, "CommonJS require"],
  [/\bfrom\s*["']node:/, "a Node built-in module"],
  [/\bimport\s*\(\s*["']node:/, "a Node built-in module (dynamic import)"],
  [/\bfrom\s*["']cloudflare:/, "a Workers runtime module"],
  [/\bimport\s*\(\s*["']cloudflare:/, "a Workers runtime module (dynamic import)"],
  [/\bfetch\s*\(/, "the network"],
  [/\bDate\.now\b/, "the clock (pass `now` in)"],
  [/\bnew Date\s*\(\s*\)/, "the clock (pass `now` in)"],
  [/\bperformance\.now\b/, "the clock"],
  [/\bMath\.random\b/, "randomness (pass it in)"],
  [/\bgetRandomValues\b/, "randomness (pass it in)"],
  [/\brandomUUID\b/, "randomness (pass it in)"],
  [/\bsetTimeout\b/, "timers"],
  [/\bsetInterval\b/, "timers"],
  [/\bconsole\./, "logging"],
];

/** `file:line: token (why)` for every forbidden token in `text`. */
function violations(name: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, i) =>
      FORBIDDEN.filter(([pattern]) => pattern.test(line)).map(
        ([pattern, why]) => `${name}:${i + 1}: ${pattern.source} (${why})`,
      ),
    );
}

describe("src/protocol purity", () => {
  const files = sourceFiles(["src/protocol"]);

  it("finds the protocol sources, policy and schemas included", () => {
    const names = files.map((f) => f.path.slice("src/protocol/".length));
    expect(names).toEqual(
      expect.arrayContaining([
        "encoding/canonical.ts",
        "signing/crypto.ts",
        "ledger/verify.ts",
        "policy/admit.ts",
        "schemas/entry.ts",
      ]),
    );
  });

  it("detects each forbidden token in a sample line", () => {
    const sample = [
      "process.env.X",
      "Buffer.from(x)",
      "require('x')",
      'import { readFile } from "node:fs";',
      'await import("node:crypto")',
      'import { DurableObject } from "cloudflare:workers";',
      'await import("cloudflare:sockets")',
      "await fetch(url)",
      "Date.now()",
      "new Date()",
      "performance.now()",
      "Math.random()",
      "crypto.getRandomValues(b)",
      "crypto.randomUUID()",
      "setTimeout(f, 1)",
      "setInterval(f, 1)",
      "console.log(x)",
    ];
    expect(sample.map((line) => violations("sample", line).length)).toEqual(sample.map(() => 1));
  });

  it("mentions no Node or Workers global, I/O, clock, randomness or logging in any file", () => {
    const found = files.flatMap((file) => violations(file.path, file.text));
    expect(found).toEqual([]);
  });
});

describe("src/text purity", () => {
  const files = sourceFiles(["src/text"]);

  it("mentions no Node or Workers global, I/O, clock, randomness or logging in any file", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((file) => violations(file.path, file.text))).toEqual([]);
  });

  it("imports only zod, the protocol and itself, so the Worker's chat code can use it", () => {
    const imports = files.flatMap((file) => [...file.text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!));
    expect(imports.filter((path) => !/^(zod$|\.\/|\.\.\/protocol\/)/.test(path))).toEqual([]);
  });
});
