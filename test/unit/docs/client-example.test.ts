/**
 * The bot example in docs/CLIENT.md is examples/seat-bot.ts verbatim, and it works: three copies,
 * bundled and run as real processes, hold a whole debate against a real relay until it closes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { sha256, utf8 } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { cast } from "../../support/table-fixture.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples/seat-bot.ts");
const BUNDLE = join(ROOT, "dist/examples/seat-bot.mjs");

let relay: LocalRelay;
beforeAll(async () => {
  [relay] = await Promise.all([
    sharedRelay(),
    build({
      entryPoints: [EXAMPLE],
      outfile: BUNDLE,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "warning",
    }),
  ]);
}, 60_000);
afterAll(() => relay?.dispose());

function runBot(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE], { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
    child.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

// Three spawned processes: 30 s per test, as the other spawned files allow.
describe("docs/CLIENT.md bot example", { timeout: 30_000 }, () => {
  it("is examples/seat-bot.ts, word for word", () => {
    const doc = readFileSync(join(ROOT, "docs/CLIENT.md"), "utf8");
    expect(doc).toContain("```ts\n" + readFileSync(EXAMPLE, "utf8") + "```");
  });

  it("runs a debate to its end as three bot processes", async () => {
    const table = uniqueTable("example");
    const client = await tableClient(relay.url, table);
    await seatDebate(client, {
      topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
    });
    const home = mkdtempSync(join(tmpdir(), "trestle-example-"));
    for (const seat of ["bot-tao", "bot-jenny", "judge"]) {
      await createKeyFile(seatKeyPath(home, seat), "seat", seat, { seed: sha256(utf8(`seat:${seat}`)) });
    }
    const env = { TRESTLE_HOME: home, TRESTLE_RELAY: relay.url, TRESTLE_TABLE: table };
    const runs = await Promise.all(
      ["bot-tao", "bot-jenny", "judge"].map((seat) => runBot({ ...env, TRESTLE_SEAT: seat })),
    );
    for (const run of runs) {
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^wrote #\d+\nthe table closed: rounds_exhausted\n$/);
    }
    const history = await client.history({ signer: (await cast()).ops, as: { owner: "ops" } });
    const says = history.items.flatMap((e) => ("kind" in e && e.kind === "say" ? [`${e.seat}: ${e.body}`] : []));
    expect(says).toEqual([
      "bot-tao: Hello from bot-tao.",
      'bot-jenny: bot-tao said "Hello from bot-tao.". I agree.',
      'judge: bot-jenny said "bot-tao said "Hello from bot-tao.". I agree.". I agree.',
    ]);
  });
});
