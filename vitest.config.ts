import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { chatBindings } from "./test/support/chat-env.js";
import { LIMITS_OFF, LIMITS_UNDER_TEST, limitSettings } from "./test/support/limits-env.js";
import { witnessBindings } from "./test/support/witness-env.js";

export default defineConfig({
  test: {
    // Vitest's default is one file at a time on two cores (cores - 1), for all projects together:
    // the whole suite ran in series and used 1.15 cores. Three at once fill the waits for relays,
    // processes and browsers: a fresh clone's run took 9 min 12 s with two, 7 min 47 s with three and
    // 7 min 31 s with four, whose files each ran longer (docs/BENCHMARKS.md).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "node",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // One module graph per worker, not per file: the files share no mutable module state
          // (each opens its own homes, relays and tables), and importing src/ once per worker
          // instead of once per file was half the node project's time (docs/BENCHMARKS.md).
          isolate: false,
          // A spy a file leaves (vi.spyOn) is undone before the next test, as a fresh module graph would.
          restoreMocks: true,
          // A test's time limit only stops a hang: with two files at once on two cores, a test that
          // starts a relay, a process or a browser can take several seconds, and 5 s failed by chance.
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { ...(await chatBindings(inject("fakeChatApi"))), ...LIMITS_OFF } },
          })),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          exclude: ["test/workers/limits/**"],
          globalSetup: ["test/support/fake-chat-global.ts"],
          // A time limit only stops a hang, as in the node project: a long table's export took over 5 s beside a type check.
          testTimeout: 30_000,
          // One Miniflare and one Worker isolate per vitest worker, not per file: loading the Worker into
          // a fresh isolate for every file was most of the suite's import time (decision 0432). The
          // files share its storage, so each uses its own table ids, chat ids and, where it binds chat
          // accounts (counted per owner key), its own owner keys (`cast`, `roomCast` labels).
          isolate: false,
        },
      },
      // The same Worker with the operator limits on and small (test/support/limits-env.ts).
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { ...(await chatBindings(inject("fakeChatApi"))), ...limitSettings(LIMITS_UNDER_TEST) },
              // The edge binding set as its published limit, as an operator changes both (wrangler.toml).
              ratelimits: {
                EDGE_READS: {
                  namespace_id: "7301",
                  simple: { limit: LIMITS_UNDER_TEST.edge_reads_per_min, period: 60 },
                },
              },
            },
          })),
        ],
        test: {
          name: "workers-limits",
          include: ["test/workers/limits/**/*.test.ts"],
          globalSetup: ["test/support/fake-chat-global.ts"],
        },
      },
      // The witness Worker, deployed alone (wrangler.witness.toml, decision 0399).
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.witness.toml" },
            miniflare: { bindings: await witnessBindings() },
          })),
        ],
        test: { name: "workers-witness", include: ["test/workers-witness/**/*.test.ts"] },
      },
    ],
  },
});
