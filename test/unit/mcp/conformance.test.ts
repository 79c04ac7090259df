/**
 * The official MCP conformance suite against `trestle mcp --http`, once per revision, both at once
 * (decision 0483): @modelcontextprotocol/conformance 0.2 alpha at 2026-07-28 and 0.1.16 at
 * 2025-11-25, each with every server scenario it has for that revision (`--suite all`), against one
 * server process each (no relay: the scenarios never reach one), through a proxy that adds the
 * bearer token the suite cannot send (test/support/token-proxy.ts; Host and Origin pass as sent).
 * Every scenario passes except the checks its baseline lists (test/conformance/), each calling a
 * tool, prompt or resource of the suite's own reference server; the suite itself fails the run on
 * an unlisted failure or a listed check that passes, and this file also fails on a listed failure
 * whose scenario names no such fixture. The suite needs Node 22 (test/support/node-versions.ts:
 * without one this skips, except under CI).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsEnv } from "../../../src/mcp/print-config.js";
import { cli, type CliProcess } from "../../support/cli.js";
import { makeHome } from "../../support/mcp.js";
import { node22, withNode } from "../../support/node-versions.js";
import { startTokenProxy, type TokenProxy } from "../../support/token-proxy.js";

/** Each revision, the suite that checks it, and its baseline. */
const RUNS = [
  { revision: "2026-07-28", suite: "@modelcontextprotocol/conformance", baseline: "baseline-2026-07-28.yml" },
  { revision: "2025-11-25", suite: "mcp-conformance-2025", baseline: "baseline-2025-11-25.yml" },
] as const;

/** A name of the suite's reference server: a tool, prompt or resource trestle does not serve. */
const FIXTURE = /\btest_[a-z0-9_]+|test:\/\/|json_schema_2020_12_tool/;
/** Scenarios that call a fixture their recorded checks do not name (read in the suite's source). */
const UNRECORDED_FIXTURE: Readonly<Record<string, string>> = {
  "input-required-result-missing-input-response": "test_input_required_result_elicitation",
  "input-required-result-multi-round": "test_input_required_result_multi_round",
  "input-required-result-tampered-state": "test_input_required_result_tampered_state",
};

/** What one run of the suite left: its exit code and output, and each scenario's checks. */
interface Outcome {
  code: number;
  output: string;
  scenarios: Map<string, { id: string; status: string; errorMessage?: string }[]>;
}

const outcomes = new Map<string, Outcome>();
const running: { server: CliProcess; proxy: TokenProxy }[] = [];

withNode(node22(), (node) => {
  beforeAll(async () => {
    await Promise.all(
      RUNS.map(async (run) => {
        const home = await makeHome("http://127.0.0.1:9", "tao", "bot-tao");
        // The 2025 suite opens a session per scenario and ends none: more than the default 16.
        const server = cli(home.dir, home.settings.url).start(["mcp", "--http", "--max-sessions", "100"], {
          env: settingsEnv(home.settings),
        });
        const url = (await server.printed(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp);/))[1]!;
        const token = (await server.printed(/bearer token (\S+) \(printed once/))[1]!;
        const proxy = await startTokenProxy(url, token);
        running.push({ server, proxy });
        const out = mkdtempSync(join(tmpdir(), `trestle-conformance-${run.revision}-`));
        const bin = fileURLToPath(new URL(`../../../node_modules/${run.suite}/dist/index.js`, import.meta.url));
        const baseline = fileURLToPath(new URL(`../../conformance/${run.baseline}`, import.meta.url));
        const args = [
          bin,
          "server",
          "--url",
          proxy.url,
          "--suite",
          "all",
          "--spec-version",
          run.revision,
          "--expected-failures",
          baseline,
          "-o",
          out,
        ];
        const { code, output } = await exited(node, args);
        outcomes.set(run.revision, { code, output, scenarios: results(out) });
      }),
    );
  }, 120_000);
  afterAll(async () => {
    for (const { server, proxy } of running) {
      server.child.kill("SIGTERM");
      await Promise.all([server.done, proxy.close()]);
    }
  });

  describe.each(RUNS)("the MCP conformance suite at $revision", ({ revision }) => {
    it("passes every scenario but the baseline's fixture checks: no unexpected failure, no stale entry", () => {
      const outcome = outcomes.get(revision)!;
      expect(outcome.output).toContain("Baseline check passed: all failures are expected.");
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.scenarios.size).toBeGreaterThan(25);
    });

    it("fails only where the scenario calls the suite's own reference server", () => {
      const { scenarios } = outcomes.get(revision)!;
      const unexplained = [...scenarios].flatMap(([name, checks]) => {
        // A warning fails a baseline check in both suites.
        const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
        const fixture = FIXTURE.test(JSON.stringify(checks)) || name in UNRECORDED_FIXTURE;
        return failed.length > 0 && !fixture ? [`${name}: ${failed.map((c) => c.id).join(", ")}`] : [];
      });
      expect(unexplained).toEqual([]);
    });

    it("passes the protocol's own scenarios whole: the handshake or discovery, HTTP headers, DNS rebinding, listing, caching", () => {
      const { scenarios } = outcomes.get(revision)!;
      const own =
        revision === "2026-07-28"
          ? [
              "tools-list",
              "resources-list",
              "prompts-list",
              "dns-rebinding-protection",
              "caching",
              "http-header-validation",
              "http-custom-header-server-validation",
              "sep-2164-resource-not-found",
              "server-sse-multiple-streams",
              "input-required-result-unsupported-methods",
              "input-required-result-ignore-extra-params",
              "input-required-result-validate-input",
              "input-required-result-missing-input-response",
            ]
          : [
              "server-initialize",
              "ping",
              "logging-set-level",
              "tools-list",
              "resources-list",
              "prompts-list",
              "dns-rebinding-protection",
              "server-sse-multiple-streams",
            ];
      for (const name of own) {
        const checks = scenarios.get(name);
        expect(checks, name).toBeDefined();
        expect(
          checks!.filter((c) => c.status === "FAILURE").map((c) => `${name}: ${c.id} ${c.errorMessage ?? ""}`),
        ).toEqual([]);
        expect(
          checks!.some((c) => c.status === "SUCCESS"),
          name,
        ).toBe(true);
      }
    });
  });
});

/** Runs `node args`; resolves with its exit code and everything it printed. */
function exited(node: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Each scenario's checks from the suite's output folder (`server-<scenario>-<time>/checks.json`). */
function results(out: string): Outcome["scenarios"] {
  const scenarios = new Map<string, { id: string; status: string; errorMessage?: string }[]>();
  for (const dir of readdirSync(out)) {
    const name = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    scenarios.set(
      name,
      JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as {
        id: string;
        status: string;
        errorMessage?: string;
      }[],
    );
  }
  return scenarios;
}
