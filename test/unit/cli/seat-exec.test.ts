/**
 * `trestle seat --exec` (docs/AGENTS.md) against a real relay, with real scripts in bash, node and
 * python3: a whole debate (two rounds, then the judge's decision closes the table), a room where a
 * seller's script offers and a buyer's script accepts by the offer's seq under their mandates, and
 * each refusal (timeout, non-zero exit, output over max_chars, output that is no entry), each logged
 * on stderr and in the seat's journal and followed by a pass, never a written piece of the output.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { authoredEntries, cliDebate } from "../../support/cli-debate.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { leaks, UNDER_FLOOR } from "../../support/owner-secrets.js";
import { refusedThenTurn, rulesRoom } from "../../support/rules-room.js";

let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;

beforeAll(async () => {
  relay = await sharedRelay();
  home = mkdtempSync(join(tmpdir(), "trestle-seat-exec-"));
  t = cli(home, relay.url);
  for (const owner of ["tao", "jenny", "ops"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
}, 60_000);

/** Writes `text` as an executable script in the home and returns its path. */
function script(name: string, text: string): string {
  const path = join(home, name);
  writeFileSync(path, text, { mode: 0o755 });
  return path;
}

const PRO = `#!/bin/bash
# Reads the framed turn on stdin; says which round it is, with the facts from its environment.
turn=$(cat)
case "$turn" in *"<<<TRESTLE-DATA "*" BEGIN>>>"*) framed=framed ;; *) framed=unframed ;; esac
echo "pro round $TRESTLE_ROUND: ship #459 ($TRESTLE_SEAT at $TRESTLE_TABLE, budget $TRESTLE_BUDGET, $framed, $TRESTLE_REASON)"
`;

const CON = `#!/usr/bin/env python3
# Reads the turn as JSON (--json) and answers with a JSON say that answers the newest pro entry.
import json, sys
turn = json.load(sys.stdin)
last = [e for e in turn["projection"]["tail"] if e.get("seat") == "bot-tao" and e["kind"] == "say"][-1]
print(json.dumps({"kind": "say", "body": "con answers #%d as %s" % (last["seq"], turn["seat"]), "re": last["seq"]}))
`;

const JUDGE = `#!/usr/bin/env node
// Reads the framed turn and decides, naming how many says it read.
let text = "";
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => {
  const says = text.split("\\n").filter((line) => /^» \\[#\\d+\\] \\S+ say\\b/.test(line)).length;
  process.stdout.write(JSON.stringify({ kind: "decision", body: "ship #461 first (read " + says + " says)" }));
});
`;

describe("trestle seat --exec", { timeout: 90_000 }, () => {
  it("runs a whole debate with bash, python3 and node scripts until the judge's decision closes the table", async () => {
    const table = await cliDebate(t, home, "seat-exec", 2);
    const seat = (name: string, command: string, json = false) =>
      t.run(["seat", "--table", table, "--seat", name, "--exec", command, ...(json ? ["--json"] : [])]);
    const [pro, con, judge] = await Promise.all([
      seat("bot-tao", script("pro.sh", PRO)),
      seat("bot-jenny", script("con.py", CON), true),
      seat("judge", script("judge.js", JUDGE)),
    ]);
    for (const run of [pro, con, judge]) expect(run.code, run.stderr).toBe(0);
    expect(judge.stdout).toMatch(/wrote decision as entry #\d+/);
    expect(judge.stdout).toMatch(/the table closed \(decision\)/);
    const entries = await authoredEntries(t, table);
    expect(entries.map((e) => `${e.seat} ${e.kind}`)).toEqual([
      "bot-tao say",
      "bot-jenny say",
      "bot-tao say",
      "bot-jenny say",
      "judge decision",
    ]);
    expect(entries[0]!.body).toBe(`pro round 1: ship #459 (bot-tao at ${table}, budget 8000, framed, floor)`);
    expect(entries[2]!.body).toMatch(/^pro round 2: /);
    expect(entries[1]!.body).toMatch(/^con answers #\d+ as bot-jenny$/);
    expect(entries[4]!.body).toBe("ship #461 first (read 4 says)");
  });

  it("runs a room: the seller's node script offers, the buyer's python3 script accepts it by its seq, each under its owner's mandate", async () => {
    const table = uniqueTable("seat-exec-room");
    const as = (seat: string) => ["--table", table, "--seat", seat];
    for (const owner of ["sara", "ben"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
    expect(
      (await t.run(["room", "create", "--table", table, "--topic", "A second-hand stroller", "--owner", "sara"])).code,
    ).toBe(0);
    expect((await t.run(["join", ...as("sara-bot"), "--owner", "sara"])).code).toBe(0);
    expect(
      (
        await t.run([
          "mandate",
          "set",
          ...as("sara-bot"),
          "--owner",
          "sara",
          "--currency",
          "TWD",
          "--cap",
          "400000",
          "--floor",
          "240000",
        ])
      ).code,
    ).toBe(0);
    const { body } = await t.json(["room", "invite", "--table", table, "--owner", "sara"]);
    expect((await t.run(["room", "join", body!.link, "--owner", "ben", "--seat", "ben-bot"])).code).toBe(0);
    expect(
      (await t.run(["mandate", "set", ...as("ben-bot"), "--owner", "ben", "--currency", "TWD", "--cap", "300000"]))
        .code,
    ).toBe(0);
    const offered = join(home, `${table}.offered`);
    const seller = script(
      "seller.js",
      `#!/usr/bin/env node
// Offers once (a file remembers it), then stays silent.
const fs = require("node:fs");
let text = "";
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => {
  const turn = JSON.parse(text);
  if (fs.existsSync(${JSON.stringify(offered)}) || turn.projection.prefix.rules.topology.kind !== "open") return;
  fs.writeFileSync(${JSON.stringify(offered)}, "yes");
  console.log(JSON.stringify({ kind: "offer", body: "stroller, folds flat", terms: { amount: 280000, currency: "TWD", text: "stroller" } }));
});
`,
    );
    const buyer = script(
      "buyer.py",
      `#!/usr/bin/env python3
# Accepts the seller's newest offer it reads by the seq of its entry; silent otherwise.
import json, sys
turn = json.load(sys.stdin)
offers = [e for e in turn["projection"]["tail"] if e["kind"] == "offer" and e.get("seat") == "sara-bot"]
if offers:
    print(json.dumps({"kind": "accept", "offer": offers[-1]["seq"], "body": "deal"}))
`,
    );
    const sara = t.start(["seat", ...as("sara-bot"), "--exec", seller, "--json"]);
    const ben = t.start(["seat", ...as("ben-bot"), "--exec", buyer, "--json"]);
    // With --json the turn goes to the script as JSON and the seat prints JSON lines too.
    const [, offerSeq] = await sara.printed(/\{"type":"written","seq":(\d+),"kind":"offer"\}/);
    const [, acceptSeq] = await ben.printed(/\{"type":"written","seq":(\d+),"kind":"accept"\}/);
    for (const side of [sara, ben]) side.child.kill("SIGINT");
    const [saraRun, benRun] = await Promise.all([sara.done, ben.done]);
    expect(saraRun.code, saraRun.stderr).toBe(0);
    expect(benRun.code, benRun.stderr).toBe(0);
    expect(JSON.parse(benRun.stdout.trim().split("\n").at(-1)!)).toMatchObject({ reason: "aborted", closed: null });
    const entries = (await t.json(["history", ...as("ben-bot")])).body!.items as {
      seq: number;
      kind: string;
      seat?: string;
      offer?: string;
      leaf: string;
    }[];
    const offer = entries.find((e) => e.seq === Number(offerSeq))!;
    expect(offer).toMatchObject({ kind: "offer", seat: "sara-bot" });
    expect(entries.find((e) => e.seq === Number(acceptSeq))).toMatchObject({
      kind: "accept",
      seat: "ben-bot",
      offer: offer.leaf,
    });
    expect((await t.run(["journal", ...as("ben-bot")])).stdout).toMatch(
      new RegExp(`sent accept as entry #${acceptSeq}`),
    );
  });

  it("under --agent-view rules gives the command no spelling of a secret on stdin, in its environment or from the CLI it runs, refusals included", async () => {
    expect((await t.run(["keygen", "--owner", "mia"])).code).toBe(0);
    const room = await rulesRoom(t, "mia", "seat-exec-rules");
    const seen = join(home, `${room.table}.seen`);
    mkdirSync(seen);
    const bin = fileURLToPath(new URL("../../../bin/trestle.mjs", import.meta.url));
    const agent = script(
      "rules-agent.sh",
      `#!/bin/bash
# Keeps what it is given each turn; at its first turn also runs the trestle CLI itself, then offers under the floor.
dir=${JSON.stringify(seen)}
n=$(( $(ls "$dir" | grep -c '^turn-') + 1 ))
cat > "$dir/turn-$n.txt"
env > "$dir/env-$n.txt"
if [ "$n" = 1 ]; then
  ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} room offer --table "$TRESTLE_TABLE" --seat "$TRESTLE_SEAT" --amount ${UNDER_FLOOR} --currency TWD --text "the house" > "$dir/cli-1.txt" 2>&1
  ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} room show --table "$TRESTLE_TABLE" --seat "$TRESTLE_SEAT" >> "$dir/cli-1.txt" 2>&1
  ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} mandate show --table "$TRESTLE_TABLE" --seat "$TRESTLE_SEAT" >> "$dir/cli-1.txt" 2>&1
  ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} mandate show --json --table "$TRESTLE_TABLE" --seat "$TRESTLE_SEAT" >> "$dir/cli-1.txt" 2>&1
  echo '{"kind":"offer","body":"the house","terms":{"amount":${UNDER_FLOOR},"currency":"TWD"}}'
else
  echo "still here"
fi
`,
    );
    await refusedThenTurn(t, room, ["--exec", agent]);

    const given = Object.fromEntries(readdirSync(seen).map((name) => [name, readFileSync(join(seen, name), "utf8")]));
    expect(Object.keys(given).sort()).toEqual(["cli-1.txt", "env-1.txt", "env-2.txt", "turn-1.txt", "turn-2.txt"]);
    for (const [name, text] of Object.entries(given)) expect(leaks(text), name).toEqual([]);
    expect(given["turn-1.txt"]).toContain(
      "above your owner's cap or below their floor is refused before it is signed, and you are told when one is",
    );
    expect(given["cli-1.txt"]).toContain("is below the mandate's floor; it was not committed");
    expect(given["cli-1.txt"]).toContain("as its agent is told it:\n  Your owner's mandate: commit money in TWD only;");
    // The owner, with the owner key that signed it, sees the whole mandate.
    const whole = await t.run(["mandate", "show", ...room.as(room.bot), "--owner", "mia"]);
    expect(whole.stdout).toContain("the agent told the rules, not the figures");
    expect(leaks(whole.stdout)).not.toEqual([]);
    expect(given["turn-2.txt"]).toContain(
      "Your last entry was refused and nothing of it was written (E_MANDATE, floor): 5000000000 TWD (minor units) is below the mandate's floor; it was not committed",
    );
  });

  describe("when the command fails its turn", () => {
    it("refuses a timeout, a non-zero exit, output over max_chars and output that is no entry, logs each, and passes", async () => {
      const table = await cliDebate(t, home, "seat-exec-refusals", 4, { max_chars: 200 });
      const failing = script(
        "failing.sh",
        `#!/bin/bash
cat > /dev/null
case "$TRESTLE_ROUND" in
  1) sleep 30; echo "too late" ;;
  2) echo "half a thought"; exit 3 ;;
  3) head -c 300 /dev/zero | tr '\\0' 'x' ;;
  4) echo '{"kind": "say", "body": ' ;;
esac
`,
      );
      const ok = script("ok.sh", "#!/bin/sh\ncat > /dev/null\necho fine\n");
      const decide = script("decide.sh", `#!/bin/sh\ncat > /dev/null\necho '{"kind":"decision","body":"done"}'\n`);
      const seat = (name: string, command: string) =>
        t.run(["seat", "--table", table, "--seat", name, "--exec", command, "--timeout", "2"]);
      const [pro, con, judge] = await Promise.all([
        seat("bot-tao", failing),
        seat("bot-jenny", ok),
        seat("judge", decide),
      ]);
      for (const run of [pro, con, judge]) expect(run.code, run.stderr).toBe(0);
      expect(pro.stderr).toMatch(
        /turn refused: E_AGENT \(timeout\): the command ran past its timeout of 2 s and was killed; nothing was written; the seat passed/,
      );
      expect(pro.stderr).toMatch(
        /turn refused: E_AGENT \(exit\): the command exited with status 3; nothing was written. Its own last words \(not trestle's\): on stdout "half a thought"; the seat passed/,
      );
      expect(pro.stderr).toMatch(
        /turn refused: E_AGENT \(too_large\): the agent's entry is 300 chars, over this table's 200; nothing was written/,
      );
      expect(pro.stderr).toMatch(
        /turn refused: E_AGENT \(not_an_entry\): the agent's answer starts with \{ but is not one JSON object/,
      );
      const entries = await authoredEntries(t, table);
      expect(entries.filter((e) => e.seat === "bot-tao")).toEqual(
        Array.from({ length: 4 }, () => ({ kind: "pass", seat: "bot-tao", body: "" })),
      );
      expect(entries.filter((e) => e.seat === "bot-jenny").map((e) => e.body)).toEqual([
        "fine",
        "fine",
        "fine",
        "fine",
      ]);
      const journal = await t.run(["journal", "--table", table, "--seat", "bot-tao"]);
      expect(journal.stdout.match(/AGENT FAILED its turn \(exec: (\w+)\), then passed/g)).toEqual([
        "AGENT FAILED its turn (exec: timeout), then passed",
        "AGENT FAILED its turn (exec: exit), then passed",
        "AGENT FAILED its turn (exec: too_large), then passed",
        "AGENT FAILED its turn (exec: not_an_entry), then passed",
      ]);
    });
  });
});
