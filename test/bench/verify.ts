/**
 * `npm run bench -- --verify`: `trestle verify` of a 10,000-entry export, end to end (a new
 * process each run, as a person runs it). The export is an open room of two seats grown in memory
 * through the relay's own admit and chain code (test/support/big-export.ts), so no relay is
 * needed; `--keep FILE` also writes it there (to time the command with other tools). Prints the
 * runs and their median; the figure goes to docs/BENCHMARKS.md by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bigLedger } from "../support/big-export.js";
import { runChild } from "./harness/child.js";
import { ROOT } from "./harness/root.js";
import { median, round } from "./harness/stats.js";

const ENTRIES = 10_000;
const RUNS = process.argv.includes("--quick") ? 1 : 5;

const work = mkdtempSync(join(tmpdir(), "trestle-bench-verify-"));
try {
  const { text, relay } = await bigLedger(ENTRIES);
  const relayKey = relay.publicKeyText;
  const keep = process.argv.indexOf("--keep");
  const file = keep > 0 ? process.argv[keep + 1]! : join(work, "export.jsonl");
  writeFileSync(file, text);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const run = await runChild(
      process.execPath,
      [join(ROOT, "bin/trestle.mjs"), "verify", file, "--relay-key", relayKey],
      { ...process.env, TRESTLE_HOME: join(work, "home") },
    );
    if (run.status !== 0) throw new Error(`trestle verify exited ${run.status}: ${run.output}`);
    times.push(run.ms);
  }
  process.stdout.write(
    `trestle verify of ${ENTRIES} entries (${file}, --relay-key ${relayKey}): median ${round(median(times), 0)} ms, runs ${times.map((t) => round(t, 0)).join(", ")}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
