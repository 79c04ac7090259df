/**
 * `node scripts/dev-restarts.mjs [rounds]`: measures when `wrangler dev` answers a table create
 * with its own 503 "Your worker restarted mid-request" (docs/SELF-HOST.md, "Running it locally").
 * It starts `wrangler dev` as `npm start` does (on port 8795, creation limits off), then for
 * `rounds` rounds (default 10) creates a table right after another process that started a relay
 * as the tests do exits, and sends bursts of 10 creates 50 ms apart. It prints how many creates
 * got the 503, how many times wrangler restarted the Worker meanwhile, and whether wrangler logged
 * an uncaught exception or unhandled rejection. Needs the site built (npm start or npm run build).
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLib, libStale } from "./build-lib.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = 8795;
const ROUNDS = Number(process.argv[2] ?? 10);
/** Creates per burst, 50 ms apart. */
const BURST = 10;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (libStale()) buildLib();
const { nobleEd25519, sha256, signCreate, utf8 } = await import("../dist/lib/protocol/index.js");
const owner = await nobleEd25519.signer(sha256(utf8(`dev-restarts:${process.pid}`)));

const limitsOff = ["CLIENT_TABLES_PER_HOUR", "OWNER_TABLES_PER_HOUR", "OWNER_TABLES"].flatMap((name) => [
  "--var",
  `TRESTLE_LIMIT_${name}:0`,
]);
const dev = spawn(
  process.execPath,
  [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(PORT),
    ...limitsOff,
  ],
  { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
);
let restarts = 0;
const log = [];
await new Promise((resolve, reject) => {
  const read = (chunk) => {
    for (const line of String(chunk).split("\n")) {
      if (/Reloading local server/.test(line)) restarts++;
      if (/Uncaught|Unhandled|\[ERROR\]/.test(line)) log.push(line.trim());
      if (/Ready on/.test(line)) resolve();
    }
  };
  dev.stdout.on("data", read);
  dev.stderr.on("data", read);
  dev.on("exit", (code) => reject(new Error(`wrangler dev exited (${code})`)));
});

let created = 0;
/** One table create at the dev relay: its status and body. */
async function create() {
  const id = `restarts-${process.pid}-${created++}`;
  const config = {
    id,
    topic: "dev restarts",
    owners: { ops: { public_key: owner.publicKeyText } },
    seats: { a: { owner: "ops" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 10 }] },
  };
  const res = await fetch(`http://127.0.0.1:${PORT}/tables`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(await signCreate(owner, config, "ops")),
  });
  return { status: res.status, text: await res.text() };
}

/** A process that starts a relay as test/support/local-relay.ts does, reads one document, and exits. */
const TEST_PROCESS = `
const { unstable_startWorker } = await import("wrangler");
const worker = await unstable_startWorker({ config: "wrangler.toml", dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, logLevel: "error", watch: false } });
await worker.ready;
await (await fetch(new URL("/.well-known/trestle.json", await worker.url))).text();
await worker.dispose();`;
const testProcess = () =>
  new Promise((resolve) =>
    spawn(process.execPath, ["--input-type=module", "-e", TEST_PROCESS], { cwd: ROOT, env, stdio: "ignore" }).on(
      "exit",
      resolve,
    ),
  );

const experiments = {
  "right after a test process exits": async () => {
    await testProcess();
    return create();
  },
  "in bursts, 10 creates 50 ms apart": async () => {
    const burst = [];
    for (let i = 0; i < BURST; i++) {
      burst.push(create());
      await sleep(50);
    }
    const answers = await Promise.all(burst);
    await sleep(1000);
    return answers;
  },
};

try {
  for (const [name, run] of Object.entries(experiments)) {
    const before = restarts;
    const answers = [];
    for (let round = 0; round < ROUNDS; round++) answers.push(...[await run()].flat());
    const refused = answers.filter(({ status, text }) => status === 503 && /restarted mid-request/.test(text)).length;
    const other = answers.filter(
      ({ status, text }) => status !== 201 && !(status === 503 && /restarted mid-request/.test(text)),
    ).length;
    console.log(
      `${name}: ${refused} of ${answers.length} creates got 503 "restarted mid-request", ${other} another refusal; wrangler dev restarted ${restarts - before} times`,
    );
  }
  console.log(
    log.length === 0
      ? "wrangler dev logged no uncaught exception, unhandled rejection or [ERROR]"
      : `wrangler dev logged:\n${log.join("\n")}`,
  );
} finally {
  dev.kill("SIGINT");
}
