/**
 * Owner sessions from the client (docs/SPEC.md §6.3): a TableSocket that answers the challenge with
 * the owner key reads every entry verified, is a live approver for E_NO_APPROVER, and cannot write
 * as a seat; TaskLog follows the tasks it sees.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TableSocket, TaskLog, type TableClient, type TaskMove } from "../../../src/client/index.js";
import type { Effect, Entry, HiddenEntry, Signer } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import type { Cast } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

const REORDER: Effect = { owner: "jenny", resource: "taskboard", action: "reorder", args: { first: "#461" } };

/** A debate where both sides have spoken and the judge holds the floor. */
async function judgeToDecide(): Promise<{ client: TableClient; k: Cast }> {
  const client = await tableClient(relay.url, uniqueTable("owner-session"));
  const k = await seatDebate(client, {
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
  });
  await client.submit(k.botTao, "bot-tao", { kind: "say", body: "pro" });
  await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "con" });
  return { client, k };
}

/** An owner session recording what it was pushed, with a wait for a seq. */
function session(client: TableClient, owner: string, signer: Signer) {
  const seen: (Entry | HiddenEntry)[] = [];
  const moves: TaskMove[] = [];
  const log = new TaskLog();
  const waiters: { seq: number; resolve(): void }[] = [];
  const socket = new TableSocket({
    url: client.http.socketUrl(client.table),
    table: client.table,
    owner,
    signer,
    tracker: client.tracker,
    handlers: {
      onEntries: (items) => {
        seen.push(...items);
        moves.push(...log.accept(items));
        for (const w of waiters.filter((w) => seen.some((e) => e.seq >= w.seq))) w.resolve();
      },
    },
  });
  const until = (seq: number) =>
    seen.some((e) => e.seq >= seq) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ seq, resolve }));
  return { socket, seen, moves, log, until };
}

describe("an owner session", () => {
  it("reads every entry verified and lets the judge's task wait for its owner", async () => {
    const { client, k } = await judgeToDecide();
    const before = await client.head();
    await expect(
      client.submit(k.judge, "judge", { kind: "decision", body: "ship #461 first", effects: [REORDER] }),
    ).rejects.toMatchObject({
      code: "E_NO_APPROVER",
      details: { owners: ["jenny"] },
    });
    expect((await client.head()).seq).toBe(before.seq);

    const jenny = session(client, "jenny", k.jenny);
    await jenny.socket.start();
    const decided = await client.submit(k.judge, "judge", {
      kind: "decision",
      body: "ship #461 first",
      effects: [REORDER],
    });
    const task = `${decided.seq}.jenny`;
    await jenny.until(decided.seq + 1);
    expect(jenny.seen.every((e) => "kind" in e)).toBe(true);
    expect(jenny.moves).toEqual([
      { seq: decided.seq + 1, task, owner: "jenny", state: "awaiting_approval", effects: [REORDER] },
    ]);

    const approved = await client.approve(k.jenny, "jenny", decided.seq, "approve");
    await jenny.until(approved.seq + 1);
    expect(jenny.log.stateOf(task)).toBe("approved");
    expect(jenny.log.open()).toEqual([task]);
    jenny.socket.close();
    expect(await jenny.socket.ended).toEqual({ reason: "closed" });
  });

  describe("when it is misused", () => {
    it("cannot write as a seat", async () => {
      const { client, k } = await judgeToDecide();
      const jenny = session(client, "jenny", k.jenny);
      await jenny.socket.start();
      await expect(jenny.socket.submit({ kind: "say", body: "hello" })).rejects.toMatchObject({ code: "E_FORBIDDEN" });
      jenny.socket.close();
    });

    it("is refused with E_AUTH when another owner's key answers the challenge", async () => {
      const { client, k } = await judgeToDecide();
      const forged = session(client, "jenny", k.tao);
      await expect(forged.socket.start()).rejects.toMatchObject({ code: "E_AUTH" });
      expect(await forged.socket.ended).toMatchObject({ reason: "error", error: { code: "E_AUTH" } });
    });
  });
});
