/**
 * The commit gateway from the `trestle` command line, end to end against a real local relay: a
 * decision with --effect, E_NO_APPROVER until the owner keeps `trestle watch --owner` open, approve
 * and reject with the owner key, tasks, progress, receipt and verify --task, votes, and every
 * refusal with the relay's own code, the documented exit code and the ledger head unchanged; and
 * who holds which pause, as watch and read show it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, OwnerClient, ownerKeyPath, seatKeyPath, type TableClient } from "../../../src/client/node.js";
import { signCommand } from "../../../src/chat/render.js";
import { sha256, utf8, type TableConfig } from "../../../src/protocol/index.js";
import { cli, refusedRun } from "../../support/cli.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { cast, debateConfig, keyOf, type Cast } from "../../support/table-fixture.js";

let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;
let checker: Awaited<ReturnType<typeof keyOf>>;

beforeAll(async () => {
  relay = await sharedRelay();
  home = mkdtempSync(join(tmpdir(), "trestle-cli-gateway-"));
  t = cli(home, relay.url);
  // The cast's keys (test/support/table-fixture.ts) as this home's key files.
  for (const owner of ["tao", "jenny", "ops"])
    await createKeyFile(ownerKeyPath(home, owner), "owner", owner, { seed: sha256(utf8(`owner:${owner}`)) });
  for (const seat of ["bot-tao", "bot-jenny", "judge", "checker"])
    await createKeyFile(seatKeyPath(home, seat), "seat", seat, { seed: sha256(utf8(`seat:${seat}`)) });
  checker = await keyOf("seat:checker");
}, 60_000);

const REORDER = 'jenny:taskboard:reorder:{"first":"#461"}';

/** A debate (one round) with a checker seat for ops, both sides heard: the judge holds the floor. */
async function judgeToDecide(
  overrides: (k: Cast) => Partial<TableConfig> = () => ({}),
): Promise<{ client: TableClient; k: Cast; table: string }> {
  const table = uniqueTable("cli-gw");
  const client = await tableClient(relay.url, table);
  const k0 = await cast();
  const base = debateConfig(k0);
  const k = await seatDebate(client, {
    seats: { ...base.seats, checker: { owner: "ops" } },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
    ...overrides(k0),
  });
  await client.join(k.ops, {
    seat: "checker",
    owner: "ops",
    seatKey: checker.publicKeyText,
    card: {},
    expires: Date.now() + 60_000,
  });
  await client.submit(k.botTao, "bot-tao", { kind: "say", body: "ship #459 first" });
  await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "no: #461 fixes data loss" });
  return { client, k, table };
}

describe("a task from decision to verified, from the command line", () => {
  it("waits for jenny's live owner session, then runs approve, progress, receipt and verify", async () => {
    const { client, table } = await judgeToDecide();
    const as = (seat: string) => ["--table", table, "--seat", seat];

    const noApprover = await refusedRun(
      t,
      "E_NO_APPROVER",
      ["decide", ...as("judge"), "ship #461 first", "--effect", REORDER],
      client,
    );
    expect(noApprover.details).toEqual({ owners: ["jenny"] });

    // --relay as a flag (the harness's TRESTLE_RELAY points nowhere for this run): the announced command must carry it.
    const watching = t.start(["watch", "--table", table, "--owner", "jenny", "--relay", relay.url], {
      env: { TRESTLE_RELAY: "http://127.0.0.1:9" },
    });
    await watching.printed(/watching .* as owner jenny/);
    const decided = await t.run(["decide", ...as("judge"), "ship #461 first", "--effect", REORDER]);
    expect(decided.code).toBe(0);
    const seq = Number(/decision written as entry #(\d+)/.exec(decided.stdout)![1]);
    const task = `${seq}.jenny`;
    expect(decided.stdout).toContain(`task ${task}  awaiting_approval  owner jenny, executor -, opened by #${seq}`);
    const announced = await watching.printed(
      new RegExp(
        `task ${task.replace(".", "\\.")} waits for you: trestle (approve [^ ]+ --table [^ ]+ --relay [^ ]+) \\(or trestle reject`,
      ),
    );

    const listed = await t.json(["tasks", "--table", table, "--owner", "jenny"]);
    expect(listed.body!.items).toMatchObject([
      { id: task, owner: "jenny", state: "awaiting_approval", executor: null },
    ]);

    // The command watch announced, as printed: the task id names the owner, so no --owner is needed.
    expect(announced[1]).toBe(`approve ${task} --table ${table} --relay ${relay.url}`);
    const approved = await t.run(announced[1]!.split(" "), { env: { TRESTLE_RELAY: "http://127.0.0.1:9" } });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^task ${task} approved by jenny: now approved \\(entry #\\d+`));

    await refusedRun(t, "E_NOT_EXECUTOR", ["progress", ...as("bot-tao"), "--task", task], client);
    const running = await t.run(["progress", ...as("bot-jenny"), "--task", task, "reordering taskboard.json"]);
    expect(running.stdout).toContain(`task ${task}  running  owner jenny, executor bot-jenny`);
    const reported = await t.json([
      "receipt",
      ...as("bot-jenny"),
      "--task",
      task,
      "moved #461 above #459",
      "--result",
      '{"order":["#461","#459"]}',
    ]);
    expect(reported.body).toMatchObject({ tasks: [{ id: task, state: "reported", executor: "bot-jenny" }] });

    await refusedRun(
      t,
      "E_SELF_VERIFY",
      ["verify", "--task", task, "--verdict", "pass", ...as("bot-jenny"), "it worked"],
      client,
    );
    const verified = await t.run(["verify", "--task", task, "--verdict", "pass", ...as("checker"), "-"], {
      input: "taskboard.json lists #461 first\n",
    });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`task ${task}  verified`);

    const watched = await watching.done;
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(
      new RegExp(
        `\\[#${seq}\\] judge decision: ship #461 first\\n +effect jenny: reorder on taskboard \\{"first":"#461"\\}`,
      ),
    );
    expect(watched.stdout).toMatch(/owner jenny approves task \d+\.jenny \(signed with the owner key\)/);
    expect(watched.stdout).toMatch(/bot-jenny receipt on task \d+\.jenny: moved #461 above #459/);
    expect(watched.stdout).toMatch(/checker verify pass on task \d+\.jenny: taskboard.json lists #461 first/);
    expect(watched.stdout).toMatch(/task \d+\.jenny → verified \(verify #\d+\)/);

    const exported = join(home, `${table}.jsonl`);
    expect((await t.run(["export", "--table", table, "--owner", "ops", "--out", exported])).code).toBe(0);
    const clean = await t.json(["verify", exported]);
    expect(clean.code).toBe(0);
    expect(clean.body).toMatchObject({ verdict: "CLEAN" });
  }, 30_000);
});

describe("approving and rejecting", () => {
  it("rejects by the decision's seq, after which approving is refused with E_TASK_STATE", async () => {
    const { client, table } = await judgeToDecide((k0) => ({
      owners: { ...debateConfig(k0).owners, jenny: { public_key: k0.jenny.publicKeyText, approvals: "async" } },
    }));
    const file = join(home, `${table}-effects.json`);
    writeFileSync(
      file,
      JSON.stringify([{ owner: "jenny", resource: "taskboard", action: "reorder", args: { first: "#461" } }]),
    );
    const decided = await t.json(["decide", "--table", table, "--seat", "judge", "ship #461 first", "--effects", file]);
    expect(decided.code).toBe(0);
    const seq = decided.body!.seq as number;
    const rejected = await t.run(["reject", String(seq), "--table", table, "--owner", "jenny"]);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toMatch(new RegExp(`^task ${seq}\\.jenny rejected by jenny: now rejected`));
    const tasks = await t.json(["tasks", "--table", table, "--owner", "jenny"]);
    expect(tasks.body!.items).toEqual([expect.objectContaining({ id: `${seq}.jenny`, state: "rejected" })]);
    const late = await refusedRun(
      t,
      "E_TASK_STATE",
      ["approve", `${seq}.jenny`, "--table", table, "--owner", "jenny"],
      client,
    );
    expect(late.details).toMatchObject({ state: "rejected" });
  }, 15_000);

  it("approves with the command a chat reply names, as printed, with no --owner or TRESTLE_TABLE set", async () => {
    const { table } = await judgeToDecide((k0) => ({
      owners: { ...debateConfig(k0).owners, jenny: { public_key: k0.jenny.publicKeyText, approvals: "async" } },
    }));
    const decided = await t.json([
      "decide",
      "--table",
      table,
      "--seat",
      "judge",
      "ship #461 first",
      "--effect",
      REORDER,
    ]);
    const task = `${decided.body!.seq}.jenny`;
    const [trestle, ...args] = signCommand("approve", table, task).split(" ");
    expect(trestle).toBe("trestle");
    const approved = await t.run(args);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^task ${task} approved by jenny: now approved`));
  }, 15_000);

  describe("when the key or the owner is not the task's", () => {
    it("refuses another owner's key (the relay answers the owner's read with E_AUTH) and another owner (E_FORBIDDEN)", async () => {
      const { client, table } = await judgeToDecide((k0) => ({
        owners: { ...debateConfig(k0).owners, jenny: { public_key: k0.jenny.publicKeyText, approvals: "async" } },
      }));
      const decided = await t.json([
        "decide",
        "--table",
        table,
        "--seat",
        "judge",
        "ship #461 first",
        "--effect",
        REORDER,
      ]);
      const task = `${decided.body!.seq}.jenny`;
      await refusedRun(
        t,
        "E_AUTH",
        ["approve", task, "--table", table, "--owner", "jenny", "--owner-key", ownerKeyPath(home, "tao")],
        client,
      );
      const other = await refusedRun(t, "E_FORBIDDEN", ["approve", task, "--table", table, "--owner", "tao"], client);
      expect(other.message).toContain("jenny's");
      await refusedRun(
        t,
        "E_UNKNOWN_TASK",
        ["approve", String(decided.body!.seq), "--table", table, "--owner", "tao"],
        client,
      );
    }, 15_000);
  });
});

describe("revoking a seat from the command line", () => {
  it("revokes the owner's own seat and says what it did; the seat's key is refused after", async () => {
    const table = uniqueTable("cli-revoke");
    const client = await tableClient(relay.url, table);
    const k = await seatDebate(client);
    const revoked = await t.run(["revoke", "--table", table, "--seat", "bot-jenny", "--owner", "jenny"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(
      /^bot-jenny revoked at \S+ by its owner jenny as entry #\d+ .*: it left the table\n/,
    );
    expect(revoked.stdout).toContain(`its key ${k.botJenny.publicKeyText.slice(0, 12)}… is refused there from now on`);
    const json = await t.json(["revoke", "--table", table, "--seat", "judge", "--owner", "ops"]);
    expect(json.body).toMatchObject({
      seat: "judge",
      seat_key: k.judge.publicKeyText,
      seq: expect.any(Number),
      head: expect.any(Object),
    });
    await refusedRun(t, "E_REVOKED", ["say", "--table", table, "--seat", "bot-jenny", "still here"], client);
  }, 15_000);

  describe("when the seat is not the owner's to revoke", () => {
    it("refuses another owner's seat (E_FORBIDDEN), an unknown one (E_UNKNOWN_SEAT) and one already revoked (E_NOT_ALLOWED), sending nothing", async () => {
      const table = uniqueTable("cli-revoke-refused");
      const client = await tableClient(relay.url, table);
      await seatDebate(client);
      await refusedRun(t, "E_FORBIDDEN", ["revoke", "--table", table, "--seat", "bot-jenny", "--owner", "tao"], client);
      await refusedRun(t, "E_UNKNOWN_SEAT", ["revoke", "--table", table, "--seat", "nobody", "--owner", "tao"], client);
      expect((await t.run(["revoke", "--table", table, "--seat", "bot-tao", "--owner", "tao"])).code).toBe(0);
      await refusedRun(t, "E_NOT_ALLOWED", ["revoke", "--table", table, "--seat", "bot-tao", "--owner", "tao"], client);
    }, 15_000);
  });
});

describe("endorsing the table's config when joining", () => {
  /** A one-round debate whose config gives jenny auto_approve for reordering her taskboard, and her a second seat, helper. */
  async function withJennysRules(table: string): Promise<{ client: TableClient; k: Cast; config: TableConfig }> {
    const client = await tableClient(relay.url, table);
    const k0 = await cast();
    const base = debateConfig(k0);
    const overrides: Partial<TableConfig> = {
      owners: {
        ...base.owners,
        jenny: {
          public_key: k0.jenny.publicKeyText,
          approvals: "async",
          auto_approve: [{ resource: "taskboard", action: "reorder" }],
        },
      },
      seats: { ...base.seats, helper: { owner: "jenny" } },
      topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
    };
    const k = await seatDebate(client, overrides);
    return { client, k, config: debateConfig(k0, { id: table, ...overrides }) };
  }

  /** Both sides speak, then the judge decides with an effect on jenny's taskboard; the task's state. */
  async function decided(client: TableClient, k: Cast, table: string): Promise<string> {
    await client.submit(k.botTao, "bot-tao", { kind: "say", body: "ship #459 first" });
    await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "no: #461 fixes data loss" });
    const run = await t.json(["decide", "--table", table, "--seat", "judge", "ship #461 first", "--effect", REORDER]);
    expect(run.code).toBe(0);
    return run.body!.tasks[0].state as string;
  }

  it("makes the joining owner's own auto_approve rules count (join --endorse), where without it they do not", async () => {
    const table = uniqueTable("cli-endorse");
    const { client, k, config } = await withJennysRules(table);
    const file = join(home, `${table}.json`);
    writeFileSync(file, JSON.stringify(config));
    const joined = await t.run(["join", "--table", table, "--seat", "helper", "--owner", "jenny", "--endorse", file]);
    expect(joined.code).toBe(0);
    expect(await decided(client, k, table)).toBe("approved");

    const control = uniqueTable("cli-endorse-none");
    const unendorsed = await withJennysRules(control);
    expect(await decided(unendorsed.client, unendorsed.k, control)).toBe("awaiting_approval");
  }, 20_000);

  describe("when the file is not the table's config", () => {
    it("refuses the join with E_WRONG_TABLE and seats nobody", async () => {
      const table = uniqueTable("cli-endorse-wrong");
      const { client, config } = await withJennysRules(table);
      const file = join(home, `${table}-other.json`);
      writeFileSync(file, JSON.stringify({ ...config, topic: "another table's question" }));
      await refusedRun(
        t,
        "E_WRONG_TABLE",
        ["join", "--table", table, "--seat", "helper", "--owner", "jenny", "--endorse", file],
        client,
      );
    }, 15_000);
  });
});

describe("votes", () => {
  it("records votes and a decision by quorum closes the table", async () => {
    const table = uniqueTable("cli-vote");
    const client = await tableClient(relay.url, table);
    const k = await seatDebate(client, {
      topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
      termination: { any: ["decision", "rounds_exhausted", { quorum: { n: 2, of: "seats" } }] },
    });
    const proposal = await client.submit(k.botTao, "bot-tao", { kind: "proposal", body: "ship #461 first" });
    const as = (seat: string) => ["--table", table, "--seat", seat, "--re", String(proposal.seq)];
    const first = await t.run(["vote", "yes", ...as("judge"), "the data loss matters most"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^vote written as entry #\d+/);
    await refusedRun(t, "E_NOT_ALLOWED", ["vote", "no", ...as("judge")], client);
    expect((await t.run(["vote", "yes", ...as("bot-jenny")])).code).toBe(0);
    const history = await t.run(["history", "--table", table, "--owner", "ops"]);
    expect(history.stdout).toMatch(/judge vote yes on #\d+: the data loss matters most/);
    expect(history.stdout).toMatch(/decision by quorum on #\d+ \(2 yes of 3\): ship #461 first/);
    expect(history.stdout).toMatch(/table closed \(decision\)/);
  }, 15_000);

  describe("when the vote is malformed", () => {
    it.each([
      ["a choice other than yes, no or abstain", ["vote", "maybe", "--table", "t-x", "--seat", "judge", "--re", "3"]],
      ["no --re", ["vote", "yes", "--table", "t-x", "--seat", "judge"]],
    ])("exits 2 for %s", async (_, args) => {
      const run = await t.run(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error E_USAGE: /m);
    });
  });
});

describe("verify --task", () => {
  describe("when its flags are incomplete or misplaced", () => {
    it.each([
      ["no --verdict", ["verify", "--task", "3.jenny", "--table", "t-x", "--seat", "checker", "ok"]],
      [
        "a verdict other than pass or fail",
        ["verify", "--task", "3.jenny", "--verdict", "maybe", "--table", "t-x", "--seat", "checker", "ok"],
      ],
      ["no reason", ["verify", "--task", "3.jenny", "--verdict", "pass", "--table", "t-x", "--seat", "checker"]],
      ["--verdict without --task", ["verify", "t-x", "--verdict", "pass"]],
    ])("exits 2 for %s", async (_, args) => {
      const run = await t.run(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error E_USAGE: /m);
    });
  });
});

describe("effects on the command line", () => {
  describe("when an --effect is malformed", () => {
    it.each([
      ["no action", ["--effect", "jenny:taskboard"]],
      ["arguments that are not JSON", ["--effect", "jenny:taskboard:reorder:{first}"]],
      ["no owner", ["--effect", ":taskboard:reorder"]],
      ["an effects file that does not exist", ["--effects", "/nonexistent/effects.json"]],
    ])("exits 2 for %s", async (_, flags) => {
      const run = await t.run(["decide", "--table", "t-x", "--seat", "judge", "ship", ...flags]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error E_USAGE: /m);
    });

    it("refuses an effect outside the protocol's alphabet with E_SCHEMA before signing (exit 3)", async () => {
      const run = await t.json([
        "decide",
        "--table",
        "t-x",
        "--seat",
        "judge",
        "ship",
        "--effect",
        "jenny:Task Board:reorder",
      ]);
      expect(run.code).toBe(3);
      expect(run.body).toMatchObject({ error: { code: "E_SCHEMA" } });
    });
  });
});

describe("pauses on the command line", () => {
  it("watch notes every pause in force after each pause and lift, and read names the holders", async () => {
    const table = uniqueTable("cli-pause");
    const client = await tableClient(relay.url, table);
    const k = await seatDebate(client);
    const watching = t.start(["watch", "--table", table, "--owner", "tao"]);
    await watching.printed(/watching .* as owner tao/);
    const tao = new OwnerClient(relay.url, k.tao);
    const jenny = new OwnerClient(relay.url, k.jenny);
    const first = (await tao.control(table, "tao", "pause")).seq;
    const second = (await jenny.control(table, "jenny", "pause")).seq;
    const both = `tao (owner key, entry ${first}), jenny (owner key, entry ${second})`;
    await watching.printed(
      new RegExp(`paused by ${both.replace(/[()]/g, "\\$&")}: no seat writes until each of them lifts their own pause`),
    );
    const read = await t.run(["read", "--table", table, "--seat", "bot-tao"]);
    expect(read.stdout).toContain(`paused by ${both}`);

    await tao.control(table, "tao", "resume");
    await watching.printed(new RegExp(`paused by jenny \\(owner key, entry ${second}\\): no seat writes`));
    await jenny.control(table, "jenny", "resume");
    await watching.printed(/no pause holds: the table takes writes/);
    watching.child.kill("SIGINT");
    const watched = await watching.done;
    expect(watched.stdout).toMatch(new RegExp(`\\[#${first}\\] .*tao paused the table \\(owner key\\)`));
    expect(watched.stdout).toMatch(/tao lifted their own pause \(owner key\)/);
  });
});
