/**
 * Jenny's owner session: her owner key answers the table's WebSocket challenge (`owner_auth`,
 * docs/SPEC.md §6.3), so the relay knows somebody can answer approvals on her resources (no
 * E_NO_APPROVER) and pushes her every entry, which the session verifies and prints. The demo waits
 * on it for seqs and task states, so narration and entries print in ledger order.
 */
import { TaskLog, type TableClient, type TableSocket, type TaskMove } from "../client/index.js";
import type { Signer, TaskStatus } from "../protocol/index.js";
import type { Transcript } from "./transcript.js";

/** A live owner session printing to the transcript. */
export class OwnerSession {
  private readonly socket: TableSocket;
  private readonly tasks = new TaskLog();
  private readonly moves: TaskMove[] = [];
  private seen = 0;
  private readonly waiters: { ready(): boolean; resolve(): void }[] = [];

  constructor(client: TableClient, owner: string, signer: Signer, transcript: Transcript) {
    this.socket = client.socket({
      owner,
      signer,
      handlers: {
        onEntries: (items) => {
          for (const item of items) transcript.entry(item);
          this.moves.push(...this.tasks.accept(items));
          this.seen = items.at(-1)?.seq ?? this.seen;
          for (const w of this.waiters.filter((w) => w.ready())) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve();
          }
        },
      },
    });
  }

  /** Connects and authenticates with the owner key. */
  start(): Promise<void> {
    return this.socket.start();
  }

  /** Resolves once every entry up to `seq` has been printed. */
  until(seq: number): Promise<void> {
    return this.when(() => this.seen >= seq);
  }

  /** The first move of a task of `owner` into `state` (and, with `task`, of that task). */
  async move(owner: string, state: TaskStatus, task?: string): Promise<TaskMove> {
    const find = () =>
      this.moves.find((m) => m.owner === owner && m.state === state && (task === undefined || m.task === task));
    await this.when(() => find() !== undefined);
    return find()!;
  }

  /** Ends the session. */
  close(): void {
    this.socket.close();
  }

  private when(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ ready, resolve });
      void this.socket.ended.then((end) =>
        reject(end.reason === "error" ? end.error : new Error("jenny's session closed")),
      );
    });
  }
}
