/**
 * The inbound JSON check (SPEC §2.1) against the bare JSON.parse it runs after, on the frames a
 * table's write path parses: a signed say, a proposal with 16 effects, and an 8000-character
 * multi-line body (string escapes). Every WebSocket submit pays this inside the table's object.
 */
import { bench, describe } from "vitest";
import { parseInboundJson, signSubmission, type SubmissionInput } from "../../src/protocol/index.js";
import { cast, nonceOf } from "../support/table-fixture.js";

const k = await cast();

/** A submit frame's text for `input`, signed by bot-tao. */
async function frame(input: Record<string, unknown>): Promise<string> {
  const request = await signSubmission(k.botTao, { table: "bench-table", seat: "a", nonce: nonceOf("bench"), ...input } as SubmissionInput);
  return JSON.stringify({ type: "submit", id: "c1", request });
}

const effects = Array.from({ length: 16 }, (_, i) => ({
  owner: "tao",
  resource: `github:tao/app-${i}`,
  action: "merge",
  args: { pr: 400 + i, title: `Ship #${400 + i}`, labels: ["release", "reviewed"], draft: false },
}));
const lines = Array.from({ length: 100 }, (_, i) => `line ${i}: ${"lorem ipsum dolor ".repeat(4)}`).join("\n");
const frames: [string, string][] = [
  ["say (short body)", await frame({ kind: "say", body: "I think #459 should ship first: it unblocks the migration." })],
  ["proposal with 16 effects", await frame({ kind: "proposal", body: "merge the release PRs", effects })],
  ["say with an 8000-char multi-line body", await frame({ kind: "say", body: lines.slice(0, 8000) })],
];

for (const [name, text] of frames) {
  describe(`${name}, ${text.length} bytes`, () => {
    bench("JSON.parse alone", () => {
      JSON.parse(text);
    });
    bench("parseInboundJson (JSON.parse + depth, duplicate keys, numbers, surrogates)", () => {
      parseInboundJson(text);
    });
  });
}
