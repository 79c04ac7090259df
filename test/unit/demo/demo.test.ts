/**
 * `npm run demo` in CI: the real demo process (scripts/demo.mjs) plays each scenario (the #459/#461
 * session, the room, the market) on one in-process relay given with --relay (no port 8787 needed),
 * and its checks hold, read both from its --json summary and, independently, from the exports it wrote.
 */
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, verifyExportText } from "../../../src/client/index.js";
import { isEntry, parseExport } from "../../../src/protocol/index.js";
import { freePort } from "../../support/free-port.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { demoChatVars } from "../../../src/demo/chat-fakes.js";

const DEMO = fileURLToPath(new URL("../../../scripts/demo.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let relay: LocalRelay;
/** The port the market demo's chat apps' stand-in listens on, which the relay's chat settings name (src/demo/chat-fakes.ts). */
let chatPort: number;
beforeAll(async () => {
  chatPort = await freePort();
  relay = await startRelay({ vars: demoChatVars(chatPort) });
}, 60_000);
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  await relay?.dispose();
});

/** A fresh temporary directory, removed after the tests. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** What a demo process printed and how it ended. */
interface DemoRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `script` (the demo by default) with `args`; `onOutput` sees stdout as it grows. */
function start(
  args: readonly string[],
  options: { script?: string; onOutput?(stdout: string, kill: (signal: NodeJS.Signals) => void): void } = {},
): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.script ?? DEMO, ...args], {
      env: { PATH: process.env.PATH ?? "", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Uint8Array) => {
      stdout += new TextDecoder().decode(d);
      options.onOutput?.(stdout, (signal) => child.kill(signal));
    });
    child.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function demo(args: readonly string[]): Promise<DemoRun> {
  return start(args);
}

/** Plays `scenario` (none: the default) on the shared relay with --json into a fresh directory, expecting a clean exit; its summary, the directory, and each check's name and verdict. */
async function played(scenario: string[], prefix: string) {
  const out = tempDir(prefix);
  const run = await demo([...scenario, "--relay", relay.url, "--out", out, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const summary = JSON.parse(run.stdout);
  const checks = (summary.checks as { name: string; ok: boolean }[]).map((c) => [c.name, c.ok]);
  return { out, summary, checks, lines: summary.transcript as string[] };
}

/** Whether anything answers HTTP at `port` (asked a bounded number of times, until it stops answering). */
async function stillAnswers(port: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/.well-known/trestle.json`, {
      signal: AbortSignal.timeout(1000),
    }).then(
      () => true,
      () => false,
    );
    if (!up) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

describe("npm run demo", () => {
  it("plays the #459/#461 session to a verified task, a CLEAN export and no trace of the private note", async () => {
    const { out, summary, checks, lines } = await played([], "trestle-demo-test-");
    expect(summary).toMatchObject({
      ok: true,
      relay: relay.url,
      task_state: "verified",
      verify: "CLEAN",
      note_absent: true,
    });
    expect(checks).toEqual([
      ["task_verified", true],
      ["verify_clean", true],
      ["note_absent", true],
    ]);
    expect(lines).toContainEqual(expect.stringMatching(/^\[#\d+\] judge decision: Ship #461 first/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ +effect jenny: reorder on taskboard \{"first":"#461","then":"#459"\}$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\$ trestle approve \d+\.jenny --owner jenny/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +CLEAN +table t-459-/));
    expect(lines).toContainEqual(
      "  the judge read 4 entries (say by bot-tao, say by bot-jenny); its rule hid the other 10",
    );

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
    expect(
      entries
        .filter((e) => e.kind === "system" && e.subkind === "task_state" && e.data.task === task)
        .map((e) => "data" in e && e.data),
    ).toMatchObject([
      { state: "approved", reason: "approval" },
      { state: "running", reason: "progress" },
      { state: "reported", reason: "receipt" },
      { state: "verified", reason: "verify" },
    ]);
    expect(entries.find((e) => e.kind === "approval")).toMatchObject({
      owner: "jenny",
      task,
      verdict: "approve",
      author: { key: expect.any(String) },
    });
    expect(entries.find((e) => e.kind === "verify")).toMatchObject({ seat: "checker", task, verdict: "pass" });
  }, 60_000);

  it("plays the room: a deal at 2,800 under both mandates signed by both owners, a CLEAN export and certificate, and neither the floor nor the cap in the ledger", async () => {
    const { summary, checks, lines } = await played(["room"], "trestle-demo-room-");
    expect(summary).toMatchObject({
      ok: true,
      scenario: "room",
      outcome: "deal",
      deal: { amount: 280000, currency: "TWD" },
      verify: "CLEAN",
      deal_signed: true,
      floor_absent: true,
      cap_absent: true,
    });
    expect(checks).toEqual([
      ["deal", true],
      ["verify_clean", true],
      ["deal_signed", true],
      ["guard_refused", true],
      ["floor_absent", true],
      ["cap_absent", true],
    ]);
    expect(lines).toContainEqual(
      expect.stringMatching(/refused on ben's machine before signing: E_MANDATE \(disclose\)/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\$ trestle gate approve [0-9a-f]{12} --table r-stroller-/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +CLEAN +table r-stroller-/));
    // The deal is shown pending after ben's signature, and done in the certificate checked offline.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ +deal on offer #\d+ in room r-stroller-\S+: PENDING: not final, waiting for sara to sign$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ +CLEAN: the certificate holds under relay key /));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ +deal on offer #\d+ in room r-stroller-\S+: DONE: both owners signed the same terms$/),
    );

    // The export, checked here without the demo's word for it.
    const text = readFileSync(summary.export, "utf8");
    const relayKey = (await new HttpClient({ url: relay.url }).wellKnown()).relay_key;
    expect((await verifyExportText(text, { relayKey })).verdict).toBe("CLEAN");
    const parsed = parseExport(text);
    if (!parsed.ok) throw new Error("the export does not parse");
    const entries = parsed.view.items.filter(isEntry);
    expect(entries.map((e) => e.kind).filter((k) => k !== "system")).toEqual([
      "offer",
      "counter",
      "counter",
      "accept",
      "deal_sign",
      "deal_sign",
      "close",
    ]);
    expect(entries.at(-1)).toMatchObject({ kind: "system", subkind: "table_closed", data: { reason: "deal" } });
    for (const entry of entries) {
      const {
        leaf: _l,
        link: _k,
        author: _a,
        nonce: _n,
        ts: _t,
        table: _tb,
        ...content
      } = entry as unknown as Record<string, unknown>;
      const said = JSON.stringify(content);
      for (const secret of ["2,400", "3,000", "my cap is"]) expect(said.toLowerCase()).not.toContain(secret);
    }
  }, 60_000);

  it("plays the market: four matches made at once, deals both owners signed and the market recorded, one room without a deal, a sale by sealed bids, the guards' refusals (a floor, a listing's text, an allowance across rooms), a rules agent never given its floor, and every export CLEAN", async () => {
    const { out, summary, checks, lines } = await played(
      ["market", "--chat-port", String(chatPort)],
      "trestle-demo-market-",
    );
    expect(summary).toMatchObject({ ok: true, scenario: "market", matches: 4 });
    expect(checks).toEqual(
      [
        "matched",
        "deals_signed",
        "deals_recorded",
        "no_deal",
        "sealed_bids",
        "guard_refused",
        "allowance",
        "rules_view",
        "figures_absent",
        "verify_clean",
        "groups",
      ].map((name) => [name, true]),
    );
    expect(
      summary.rooms.map(
        (r: { outcome: string; price: number | null; deal: string | null; recorded: number | null }) => [
          r.outcome,
          r.price,
          r.deal,
          r.recorded !== null,
        ],
      ),
    ).toEqual([
      ["deal", 315000, "done", true],
      ["no_deal", null, null, false],
      ["deal", 85000, "done", true],
      ["deal", 115000, "done", true],
      ["deal", 90000, "done", true],
    ]);
    const has = (pattern: RegExp, times = 1) =>
      expect(
        lines.filter((line) => pattern.test(line)),
        String(pattern),
      ).toHaveLength(times);
    has(
      /^\$ trestle market create --table m-swap-[0-9a-f]{6} --owner hana --topic "Parents' swap: used baby gear" --categories baby-gear,books,toys/,
    );
    has(
      /^\$ trestle market admit --table m-swap-[0-9a-f]{6} --owner hana --key=[A-Za-z0-9_-]{43} +← an invite only ana's owner key can use$/,
    );
    has(/^\[#\d+\] ana-bot joined \(owner ana\) +← admitted by key, joined with no code$/);
    has(/^ +refused on chen's machine before signing: E_MANDATE \(disclose\)/);
    has(
      /^\[#\d+\] match: ana's offer #\d+ with ben's want #\d+, 1 unit \(words: stroller\); its room is mr-[0-9a-f]{40}/,
    );
    has(/^\[#\d+\] match: /, 4);
    has(/^\$ trestle market room \d+ --table m-swap-[0-9a-f]{6} --owner ben/);
    has(
      /^ +ana-bot's agent is told: "Your owner's mandate: commit money in TWD only; .*\(your owner keeps the amounts to themselves\)/,
    );
    has(/^ +ben-bot's agent is told: "Your owner's mandate: commit at most 3,200\.00 TWD;/);
    has(
      /^ +refused on ana's machine before signing: E_MANDATE \(floor\): 300000 TWD \(minor units\) is below the mandate's floor/,
    );
    has(/^\[#\d+\] ben-bot accept offer [0-9a-f]{12}…: Deal at 3,150\.00 TWD\./);
    has(/^\[#\d+\] hana-bot close no_deal/);
    has(
      /^ +refused on ben's machine before signing: E_MANDATE \(allowance\): 120000 TWD \(minor units\) would bring .* to 5,250\.00 TWD .*past their allowance of 5,200\.00 TWD/,
    );
    has(/^ +after: +spent 4,300\.00 TWD, reserved 0\.00 TWD, 0 open$/);
    has(/^\[#\d+\] (ben|hana)-bot commits a sealed bid on listing [0-9a-f]{12}…/, 2);
    has(
      /ben-bot's agent bids 900\.00 TWD, sealed: the bid and its salt stay in ben's journal; it holds as much of ben's allowance until the bids settle/,
    );
    has(/^\[#\d+\] listing [0-9a-f]{12}… sold by sealed bids to hana at 900\.00 TWD/);
    has(/^\[#\d+\] sale: dara's listing #\d+ to hana's bid #\d+, 1 unit at 900\.00 TWD/);
    has(/^\[#\d+\] deal recorded for match #\d+ \(room mr-[0-9a-f]{40}\), closing 1 unit/, 4);
    has(/^ +CLEAN +table m-swap-[0-9a-f]{6}, \d+ entries$/);
    has(/^ +CLEAN +table mr-[0-9a-f]{40}, \d+ entries$/, 5);
    // The chat groups: bound with hana's codes, told the market's news in their languages, posted from by three members, answered privately.
    has(
      /^\$ trestle market group-code --table m-swap-[0-9a-f]{6} --owner hana --platform (telegram --lang en|line --lang ja|discord --lang zh-Hant)/,
      3,
    );
    has(
      /^ +hana types it in the parents' Telegram group; the bot answers her alone: Bound: this Telegram group is the front door of market m-swap-[0-9a-f]{6}/,
    );
    has(/^ +the parents' LINE group is greeted: このグループはマーケットの入口になりました$/);
    has(/^ +the parents' Discord channel is greeted: 本群已成為一個市場的入口$/);
    has(/^ +the bot answers (ana|ben|chen) alone: Listed #\d+ in market m-swap-[0-9a-f]{6}: .*UNVERIFIED/, 3);
    has(/^ +#\d+ New offer: "Bugaboo stroller" \(baby-gear\), ×1, 3,000\.00 TWD to 3,600\.00 TWD, by ana$/);
    has(/^ +#\d+ Deal done: "Bugaboo stroller" \(baby-gear\), ×1\.$/);
    has(/^ +#\d+ 交易完成："Bugaboo stroller"（baby-gear），×1。$/);

    // The exports, checked here without the demo's word for them: each CLEAN under the relay's key, the market's holding 4 matches by words and a sale, 4 deals recorded, no private figure written out.
    const relayKey = (await new HttpClient({ url: relay.url }).wellKnown()).relay_key;
    const files = readdirSync(out).filter((name) => name.endsWith(".jsonl"));
    expect(files).toHaveLength(6);
    for (const name of files) {
      const text = readFileSync(join(out, name), "utf8");
      expect((await verifyExportText(text, { relayKey })).verdict, name).toBe("CLEAN");
      for (const figure of ["3,100", "3,200", "5,200", "1,250", "2,000"]) expect(text, name).not.toContain(figure);
    }
    const parsed = parseExport(readFileSync(summary.export, "utf8"));
    if (!parsed.ok) throw new Error("the market's export does not parse");
    const subkinds = parsed.view.items.filter(isEntry).flatMap((e) => (e.kind === "system" ? [e.subkind] : []));
    expect(subkinds.filter((k) => k === "match")).toHaveLength(5);
    expect(subkinds.filter((k) => k === "listing_settled")).toHaveLength(1);
    expect(subkinds.filter((k) => k === "deal_recorded")).toHaveLength(4);
  }, 150_000);

  describe("when it cannot play", () => {
    it("fails loudly when no relay answers at --relay (exit 1)", async () => {
      const run = await demo(["--relay", "http://127.0.0.1:9", "--json"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^DEMO FAILED: no trestle relay answers at http:\/\/127\.0\.0\.1:9/);
    });

    it("exits 1 naming the step that failed, and leaves nothing connected behind (no hang)", async () => {
      // A checkout whose trestle command always fails: the demo's bundle beside a bin/trestle.mjs that exits 3.
      const root = tempDir("trestle-demo-root-");
      mkdirSync(join(root, "dist"));
      mkdirSync(join(root, "bin"));
      copyFileSync(join(ROOT, "dist", "demo.mjs"), join(root, "dist", "demo.mjs"));
      writeFileSync(
        join(root, "bin", "trestle.mjs"),
        'process.stderr.write("error E_AUTH: refused\\n");\nprocess.exitCode = 3;\n',
      );
      symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
      const run = await start(["--relay", relay.url, "--json", "--out", join(root, "out")], {
        script: join(root, "dist", "demo.mjs"),
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^DEMO FAILED: trestle approve exited 3$/m);
    }, 30_000);

    it("stops the relay it started and deletes its keys when it is terminated", async () => {
      const port = await freePort();
      let work = "";
      const run = await start(["--port", String(port), "--out", tempDir("trestle-demo-test-")], {
        onOutput: (stdout, kill) => {
          const match = /work directory (\S+)/.exec(stdout);
          if (match && !work) {
            work = match[1]!;
            kill("SIGTERM");
          }
        },
      });
      expect(work).not.toBe("");
      expect(run.code).toBe(143);
      expect(existsSync(work)).toBe(false);
      expect(await stillAnswers(port)).toBe(false);
    }, 120_000);

    it.each([
      ["an unknown scenario", ["chess"]],
      ["an unknown flag", ["--frobnicate"]],
      ["a port that is not one", ["--port", "99999"]],
    ])("exits 2 for %s", async (_, args) => {
      const run = await demo(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^demo: /);
    });
  });
});
