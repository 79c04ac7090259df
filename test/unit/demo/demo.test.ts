/**
 * `npm run demo` in CI: the real demo process (scripts/demo.mjs) plays the #459/#461 session on an
 * in-process relay given with --relay (no port 8787 needed), and its checks hold, read both from its
 * --json summary and, independently, from the export it wrote.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, verifyExportText } from "../../../src/client/index.js";
import { isEntry, parseExport } from "../../../src/protocol/index.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";

const DEMO = fileURLToPath(new URL("../../../scripts/demo.mjs", import.meta.url));

let relay: LocalRelay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(() => relay?.dispose());

function demo(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO, ...args], { env: { PATH: process.env.PATH ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
    child.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run demo", () => {
  it("plays the #459/#461 session to a verified task, a CLEAN export and no trace of the private note", async () => {
    const out = mkdtempSync(join(tmpdir(), "trestle-demo-test-"));
    const run = await demo(["--relay", relay.url, "--out", out, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ ok: true, relay: relay.url, task_state: "verified", verify: "CLEAN", note_absent: true });
    expect(summary.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ["task_verified", true],
      ["verify_clean", true],
      ["note_absent", true],
    ]);
    const lines: string[] = summary.transcript;
    expect(lines).toContainEqual(expect.stringMatching(/^\[#\d+\] judge decision: Ship #461 first/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +effect jenny: reorder on taskboard \{"first":"#461","then":"#459"\}$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\$ trestle approve \d+\.jenny --owner jenny/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +CLEAN +table t-459-/));
    expect(lines).toContainEqual("  the judge read 4 entries (say by bot-tao, say by bot-jenny); its rule hid the other 10");

    // The export, checked here without the demo's word for it.
    expect(summary.export).toBe(join(out, `${summary.table}.jsonl`));
    const text = readFileSync(summary.export, "utf8");
    expect(text.toLowerCase()).not.toContain("jenny is on leave next week");
    expect(text.toLowerCase()).not.toContain("on leave");
    const relayKey = (await new HttpClient({ url: relay.url }).wellKnown()).relay_key;
    expect((await verifyExportText(text, { relayKey })).verdict).toBe("CLEAN");
    const parsed = parseExport(text);
    if (!parsed.ok) throw new Error("the export does not parse");
    const entries = parsed.view.items.filter(isEntry);
    const task = summary.task as string;
    expect(entries.filter((e) => e.kind === "system" && e.subkind === "task_state" && e.data.task === task).map((e) => "data" in e && e.data)).toMatchObject([
      { state: "approved", reason: "approval" },
      { state: "running", reason: "progress" },
      { state: "reported", reason: "receipt" },
      { state: "verified", reason: "verify" },
    ]);
    expect(entries.find((e) => e.kind === "approval")).toMatchObject({ owner: "jenny", task, verdict: "approve", author: { key: expect.any(String) } });
    expect(entries.find((e) => e.kind === "verify")).toMatchObject({ seat: "checker", task, verdict: "pass" });
  }, 60_000);

  describe("when it cannot play", () => {
    it("says the room scenario is not available yet (exit 2)", async () => {
      const run = await demo(["room"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/the room scenario is not available yet/);
      expect(run.stdout).toBe("");
    });

    it("fails loudly when no relay answers at --relay (exit 1)", async () => {
      const run = await demo(["--relay", "http://127.0.0.1:9", "--json"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^DEMO FAILED: no trestle relay answers at http:\/\/127\.0\.0\.1:9/);
    });

    it.each([["an unknown scenario", ["chess"]], ["an unknown flag", ["--frobnicate"]], ["a port that is not one", ["--port", "99999"]]])(
      "exits 2 for %s",
      async (_, args) => {
        const run = await demo(args);
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/^demo: /);
      },
    );
  });
});
