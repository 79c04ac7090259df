/**
 * The task after jenny approved it: her bot (a seat of hers, so it may execute) starts it, reorders
 * her local taskboard.json and reports a receipt with the file's new order and hash; the checker
 * (an ops seat, not the executor) reads the file itself and writes `verify`. Each step is a signed
 * entry; the relay moves the task approved → running → reported → verified. Both read the task from
 * the verified ledger, never from what someone said it was.
 */
import { TaskLog, type TableClient } from "../client/index.js";
import { isEntry, type Entry, type Signer, type SystemEntryOf, type TaskStatus } from "../protocol/index.js";
import { DemoError } from "./errors.js";
import { order, readBoard, reorder, writeBoard } from "./taskboard.js";

/** One seat's hands: its client, name and key. */
export interface SeatHands {
  client: TableClient;
  seat: string;
  signer: Signer;
}

/** What the ledger says about one task: the entry that opened it, its state, its receipt if any. */
interface TaskRecord {
  opened: SystemEntryOf<"task_opened">;
  state: TaskStatus;
  receipt: Extract<Entry, { kind: "receipt" }> | undefined;
}

/** bot-jenny runs the approved task `task` on the board at `path`; returns the order before and after. */
export async function executeTask(
  hands: SeatHands,
  task: string,
  path: string,
): Promise<{ before: string[]; after: string[] }> {
  const { client, seat, signer } = hands;
  const record = await readTask(hands, task);
  if (record.state !== "approved") throw new DemoError(`bot-jenny sees task ${task} as ${record.state}, not approved`);
  const args = record.opened.data.effects[0]!.args;
  const ids = [String(args.first), String(args.then)];
  await client.submit(signer, seat, {
    kind: "progress",
    task,
    body: `reordering taskboard.json: ${ids.join(", then ")}`,
  });
  const { board } = readBoard(path);
  writeBoard(path, reorder(board, ids));
  const written = readBoard(path);
  await client.submit(signer, seat, {
    kind: "receipt",
    task,
    body: `taskboard.json now lists ${order(written.board).join(", ")}`,
    result: { file: "taskboard.json", next: order(written.board), sha256: written.sha256 },
  });
  return { before: order(board), after: order(written.board) };
}

/** The checker reads the board itself and verifies `task` against the effect and the receipt; returns its verdict. */
export async function checkTask(hands: SeatHands, task: string, path: string): Promise<"pass" | "fail"> {
  const { client, seat, signer } = hands;
  const { opened, receipt } = await readTask(hands, task);
  if (!receipt) throw new DemoError(`the checker finds no receipt for task ${task}`);
  const args = opened.data.effects[0]!.args;
  const { board, sha256 } = readBoard(path);
  const ids = order(board);
  const asked = ids[0] === args.first && ids[1] === args.then;
  const asReported = receipt.result?.sha256 === sha256;
  const verdict = asked && asReported ? "pass" : "fail";
  const body =
    `read taskboard.json myself: ${ids.join(", ")}; ${asked ? "as the decision asked" : "NOT as the decision asked"}, ` +
    `${asReported ? "and its hash matches the receipt" : "and its hash does NOT match the receipt"}`;
  await client.submit(signer, seat, { kind: "verify", task, verdict, body });
  return verdict;
}

async function readTask(hands: SeatHands, task: string): Promise<TaskRecord> {
  const items = (await hands.client.history({ signer: hands.signer, as: { seat: hands.seat } })).items;
  const log = new TaskLog();
  log.accept(items);
  const entries = items.filter(isEntry);
  const opened = entries.find(
    (e): e is SystemEntryOf<"task_opened"> =>
      e.kind === "system" && e.subkind === "task_opened" && e.data.task === task,
  );
  const state = log.stateOf(task);
  if (!opened || !state) throw new DemoError(`${hands.seat} finds no task ${task} in the ledger`);
  const receipt = entries.find(
    (e): e is Extract<Entry, { kind: "receipt" }> => e.kind === "receipt" && e.task === task,
  );
  return { opened, state, receipt };
}
