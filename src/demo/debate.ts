/**
 * The design's #459/#461 session, played end to end on a real relay with scripted seats: bot-tao
 * (pro, owner tao) and bot-jenny (con, owner jenny, with a private note) debate; the judge (owner
 * ops) reads only their `say`s and decides with an effect on jenny's taskboard; the task waits for
 * jenny, whose owner session is live; jenny approves with `trestle approve`; bot-jenny reorders
 * her local taskboard.json and reports; the checker (owner ops) reads the file and verifies. Then
 * the export is written and checked with `trestle verify`. Returns what the checks need.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createKeyFile,
  HttpClient,
  openTable,
  ownerKeyPath,
  runSeat,
  seatKeyPath,
  TableClient,
  randomBytes,
  type LoadedKey,
  type SeatHandler,
} from "../client/node.js";
import { toHex, type TableConfig } from "../protocol/index.js";
import { jennySeat, judgeSeat, PRIVATE_NOTE, taoSeat, type JudgeView } from "./debaters.js";
import { DemoError } from "./errors.js";
import { OwnerSession } from "./owner-session.js";
import type { DemoRelay } from "./relay.js";
import { checkTask, executeTask } from "./task-work.js";
import { INITIAL_BOARD, writeBoard } from "./taskboard.js";
import { trestleCli } from "./trestle-cli.js";
import { shortPath } from "./paths.js";
import type { ScenarioOptions } from "./scenario-options.js";

/** What happened, for the checks. */
export interface DebateOutcome {
  table: string;
  task: string;
  taskState: string;
  exportPath: string;
  exportText: string;
  verify: { code: number | null; stdout: string };
  privateNote: string;
}

const OWNERS = ["tao", "jenny", "ops"] as const;
const SEATS = { "bot-tao": "tao", "bot-jenny": "jenny", judge: "ops", checker: "ops" } as const;
type Seat = keyof typeof SEATS;

/** Plays the #459/#461 session; throws DemoError when a step the story needs does not happen. */
export async function playDebate(o: ScenarioOptions): Promise<DebateOutcome> {
  const t = o.transcript;
  const home = join(o.work, "home");
  const boardPath = join(o.work, "jenny", "taskboard.json");
  const table = `t-459-${toHex(randomBytes(3))}`;
  const trestle = trestleCli(o.root, home, o.relay.url);

  const owners = Object.fromEntries(
    await Promise.all(OWNERS.map(async (n) => [n, await createKeyFile(ownerKeyPath(home, n), "owner", n)] as const)),
  ) as Record<(typeof OWNERS)[number], LoadedKey>;
  const seats = Object.fromEntries(
    await Promise.all(
      (Object.keys(SEATS) as Seat[]).map(
        async (n) => [n, await createKeyFile(seatKeyPath(home, n), "seat", n)] as const,
      ),
    ),
  ) as Record<Seat, LoadedKey>;
  mkdirSync(join(o.work, "jenny"), { recursive: true });
  writeBoard(boardPath, INITIAL_BOARD);

  const admin = await openTable({ relay: o.relay.url, table, home });
  if (admin.tracker.relayKey !== o.relay.relayKey)
    throw new DemoError(`the relay's key changed during the demo (pinned ${admin.tracker.relayKey})`);
  const opened = await admin.create(owners.ops.signer, "ops", config(table, owners));
  t.say(
    `ops opened ${table} (head #${opened.head.seq}); the judge's visibility rule: only bot-tao's and bot-jenny's say entries`,
  );

  const session = new OwnerSession(await clientFor(o.relay, table), "jenny", owners.jenny.signer, t);
  // Whatever fails, nothing is left connected: the seats' loops are aborted and the owner session closed.
  const seatsDone = new AbortController();
  try {
    await session.start();
    t.say(
      "jenny's owner session is live (owner_auth on the table's WebSocket): it prints every entry below, verified,",
    );
    t.say("and tells the relay that somebody can answer approvals on jenny's resources (else: E_NO_APPROVER)");
    const expires = Date.now() + 10 * 60_000;
    for (const seat of Object.keys(SEATS) as Seat[]) {
      const owner = SEATS[seat];
      await admin.join(owners[owner].signer, {
        seat,
        owner,
        seatKey: seats[seat].signer.publicKeyText,
        card: { summary: SUMMARIES[seat] },
        expires,
      });
    }
    await session.until((await admin.head()).seq);

    t.section("the debate (scripted seats, no model calls)");
    t.say(
      `bot-jenny holds a private note from jenny: "${PRIVATE_NOTE}"; it may shape what the bot says, never be said`,
    );
    const judged: { view?: JudgeView } = {};
    const handlers: Record<Exclude<Seat, "checker">, SeatHandler> = {
      "bot-tao": taoSeat(),
      "bot-jenny": jennySeat([PRIVATE_NOTE]),
      judge: judgeSeat((view) => (judged.view = view)),
    };
    const runs = await Promise.all(
      (Object.keys(handlers) as (keyof typeof handlers)[]).map(async (seat) =>
        runSeat(handlers[seat], {
          client: await clientFor(o.relay, table),
          seat,
          signer: seats[seat].signer,
          signal: seatsDone.signal,
        }),
      ),
    );
    await session.until((await admin.head()).seq);
    const view = judged.view;
    if (view) {
      const kinds = [...new Set(view.read.map((e) => `${e.kind} by ${e.seat}`))].join(", ");
      t.say(`the judge read ${view.read.length} entries (${kinds}); its rule hid the other ${view.hidden}`);
    }
    if (runs.some((run) => run.closed !== "decision"))
      throw new DemoError(`the debate ended without a decision (${runs.map((r) => r.closed).join(", ")})`);

    const waiting = await session.move("jenny", "awaiting_approval");
    const task = waiting.task;
    t.say(
      `task ${task} waits for jenny's own signature; the relay accepted the decision because her owner session is live`,
    );

    t.section("jenny approves, with her owner key, from her own machine");
    const approveArgs = ["approve", task, "--owner", "jenny", "--table", table];
    const approved = await t.command(approveArgs, () => trestle(approveArgs));
    if (approved.code !== 0) throw new DemoError(`trestle approve exited ${approved.code}`);
    await session.move("jenny", "approved", task);

    t.section("bot-jenny runs the task on jenny's machine");
    const jennyHands = {
      client: await clientFor(o.relay, table),
      seat: "bot-jenny",
      signer: seats["bot-jenny"].signer,
    };
    const reordered = await executeTask(jennyHands, task, boardPath);
    await session.move("jenny", "reported", task);
    t.say(`taskboard.json before: ${reordered.before.join(", ")}`);
    t.say(`taskboard.json after:  ${reordered.after.join(", ")}`);

    t.section("the checker reads taskboard.json itself and verifies");
    const checkerHands = { client: await clientFor(o.relay, table), seat: "checker", signer: seats.checker.signer };
    const verdict = await checkTask(checkerHands, task, boardPath);
    const final = await session.move("jenny", verdict === "pass" ? "verified" : "failed", task);
    await session.until(final.seq);
    session.close();

    t.section("export, and the CLI's own verification");
    const { text } = await admin.exportLedger({ signer: owners.ops.signer, as: { owner: "ops" } });
    mkdirSync(o.outDir, { recursive: true });
    const exportPath = join(o.outDir, `${table}.jsonl`);
    writeFileSync(exportPath, text);
    const shown = shortPath(exportPath);
    t.say(`export (as owner ops, every entry): ${shown}`);
    const verifyArgs = ["verify", shown];
    const verified = await t.command(verifyArgs, () => trestle(verifyArgs));

    const states = await admin.tasks({ signer: owners.ops.signer, as: { owner: "ops" } });
    return {
      table,
      task,
      taskState: states.find((s) => s.id === task)?.state ?? "missing",
      exportPath,
      exportText: text,
      verify: { code: verified.code, stdout: verified.stdout },
      privateNote: PRIVATE_NOTE,
    };
  } finally {
    seatsDone.abort();
    session.close();
  }
}

const SUMMARIES: Record<Seat, string> = {
  "bot-tao": "argues for #459 (pro), for tao",
  "bot-jenny": "argues for #461 (con), for jenny",
  judge: "decides, reading only the two sides' says",
  checker: "checks reported tasks against the files",
};

/** The table: a two-round debate, a checker seat, the judge's narrow visibility, ended by a decision. */
function config(table: string, owners: Record<(typeof OWNERS)[number], LoadedKey>): TableConfig {
  return {
    id: table,
    topic: "Which ships first: #459 (CSV export) or #461 (the data-loss fix)?",
    owners: Object.fromEntries(OWNERS.map((n) => [n, { public_key: owners[n].signer.publicKeyText }])),
    seats: Object.fromEntries(Object.entries(SEATS).map(([seat, owner]) => [seat, { owner }])),
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 2 },
    visibility: { judge: { seats: ["bot-tao", "bot-jenny"], kinds: ["say"] } },
    termination: { any: ["decision", "rounds_exhausted", { max_entries: 100 }] },
  };
}

/** A client of its own for one seat or session (its own head tracker), pinned to the relay's key. */
function clientFor(relay: DemoRelay, table: string): Promise<TableClient> {
  return TableClient.open({ http: new HttpClient({ url: relay.url }), table, relayKey: relay.relayKey });
}
