/** Every byte of a CLEAN export is covered by some check: altering any one never leaves it CLEAN. */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyExport } from "../../../src/protocol/index.js";
import { debateToDecision, exportOf } from "./fixtures.js";

let bytes: Uint8Array;
let relayKey: string;

beforeAll(async () => {
  const { k, entries, head } = await debateToDecision();
  relayKey = k.relay.publicKeyText;
  bytes = new TextEncoder().encode(exportOf(k.relay, entries, [head]));
});

/** The verdict for the export with byte `at` replaced by `by` (decoded as a reader would, with U+FFFD). */
async function verdictWith(at: number, by: number): Promise<string> {
  const altered = bytes.slice();
  altered[at] = by;
  return (await verifyExport(new TextDecoder().decode(altered), { relayKey })).verdict;
}

// Exhaustive loops over every byte: about 30 s of CPU for the lowest-bit loop alone, and twice that
// when the files beside it take the other core and more (it missed 60 s in two whole runs at load
// 5-12). The limit only stops a hang.
describe("altering one byte of a CLEAN export", { timeout: 180_000 }, () => {
  it("starts from a CLEAN export ending in a newline", async () => {
    expect((await verifyExport(new TextDecoder().decode(bytes), { relayKey })).verdict).toBe("CLEAN");
    expect(bytes.at(-1)).toBe(0x0a);
  });

  it("never yields CLEAN, for any byte and any other value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, delta) => {
        const by = (bytes[at]! + delta) % 256;
        expect(await verdictWith(at, by)).not.toBe("CLEAN");
      }),
      { seed: 20261129, numRuns: 1000 },
    );
  });

  it("never yields CLEAN when any single byte flips its lowest bit (every position)", async () => {
    for (let at = 0; at < bytes.length; at++) {
      const verdict = await verdictWith(at, bytes[at]! ^ 1);
      if (verdict === "CLEAN") expect.fail(`flipping byte ${at} left the export CLEAN`);
    }
    // One full verification per byte: several seconds on a loaded 2-core machine, so not the default 5 s.
  }, 60_000);

  it("never yields CLEAN when the final newline becomes any other byte (JSON whitespace included)", async () => {
    const last = bytes.length - 1;
    for (let by = 0; by < 256; by++) {
      if (by !== 0x0a) expect(await verdictWith(last, by), `final byte ${by}`).not.toBe("CLEAN");
    }
  });

  it("never yields CLEAN when any byte becomes JSON whitespace", async () => {
    for (let at = 0; at < bytes.length; at += 7) {
      for (const by of [0x20, 0x09, 0x0d, 0x0a]) {
        if (by !== bytes[at] && (await verdictWith(at, by)) === "CLEAN")
          expect.fail(`byte ${at} -> ${by} left the export CLEAN`);
      }
    }
  });
});
