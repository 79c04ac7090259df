/**
 * `npm run bench -- --profile [ws|http] [direct]`: a CPU profile of the relay's user worker while four
 * seats append over WebSocket (or HTTP), to find where an append's time goes; `direct` runs the relay
 * in one workerd without wrangler dev's proxy (harness/relay.ts). Writes the V8
 * profile to bench/relay.cpuprofile (open it in Chrome DevTools) and prints the hottest functions
 * by self time. Profiling slows the relay; its throughput here is not a benchmark figure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hotFunctions, Profiler } from "./harness/profiler.js";
import { startBenchRelay } from "./harness/relay.js";
import { ROOT } from "./harness/root.js";
import { appendRun } from "./suites/appends.js";

const INSPECTOR_PORT = 9333;
const transport = process.argv.includes("http") ? "http" : "ws";
const storage = mkdtempSync(join(tmpdir(), "trestle-profile-"));
const relay = await startBenchRelay({
  persist: storage,
  inspectorPort: INSPECTOR_PORT,
  direct: process.argv.includes("direct"),
});
try {
  const load = { transport, seats: 4, inFlight: 8 } as const;
  await appendRun(relay, `warm-${Date.now().toString(36)}`, { ...load, perSeat: 100 });
  const profiler = await Profiler.connect(INSPECTOR_PORT);
  await profiler.start();
  const run = await appendRun(relay, `profile-${Date.now().toString(36)}`, {
    ...load,
    perSeat: transport === "ws" ? 1000 : 300,
  });
  const profile = await profiler.stop();
  profiler.close();
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "relay.cpuprofile"), JSON.stringify(profile));
  process.stdout.write(`${run.entries} appends over ${transport} while profiling\n`);
  for (const hot of hotFunctions(profile, 40))
    process.stdout.write(`${hot.share_pct.toFixed(1).padStart(5)}%  ${hot.function}  ${hot.where}\n`);
} finally {
  await relay.dispose();
  rmSync(storage, { recursive: true, force: true });
}
