/**
 * Owner notifications survive the death of the table's object (docs/SPEC.md §11.3): the write that
 * causes one records it in the same transaction and arms the alarm; when the object dies before its
 * hand-off, the alarm hands it to the owner's object, and the owner's chat gets it exactly once even
 * when it is handed over twice (the event id is the owner side's idempotency key).
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { writeSubmission } from "../../durable-objects/table/writing/writes.js";
import { signSubmission } from "../../src/protocol/index.js";
import { drain, requests } from "../support/chat-driver.js";
import { bound, CARD, proposed, relay, room } from "../support/chat-room.js";
import { nonceOf } from "../support/table-fixture.js";

const table = (id: string) => env.TABLES.get(env.TABLES.idFromName(id));
const noticeRows = (id: string) => runInDurableObject(table(id), (_t: TableDO, state) => state.storage.sql.exec("SELECT owner_key, events, attempts FROM notices").toArray());
/** How many notice rows the table ever wrote (AUTOINCREMENT's counter, kept after their delete). */
const noticesWritten = (id: string) =>
  runInDurableObject(table(id), (_t: TableDO, state) => Number(state.storage.sql.exec("SELECT seq FROM sqlite_sequence WHERE name = 'notices'").toArray()[0]?.seq ?? 0));
const approvalMessages = async (chat: string) => (await requests(`"chat_id":"${chat}"`)).filter((r) => JSON.stringify(r.body).includes("Approval needed"));

describe("when the table's object dies between a write and its hand-over", () => {
  it("hands the approval request over from the alarm, and the owner's chat gets it once even when it is handed over twice", async () => {
    const id = "notice-kill";
    const k = await room(id);
    await bound("telegram", k.jenny, "97001");
    const request = await signSubmission(k.x, { table: id, seat: "x", kind: "proposal", body: "put #459 on the board", effects: [CARD], nonce: nonceOf("notice-kill") });
    // The write commits; the object dies before the DO shell's afterWrite starts the hand-off.
    const task = await runInDurableObject(table(id), async (t: TableDO) => `${(await writeSubmission(t.table, request)).primary.seq}.jenny`);
    await evictDurableObject(table(id));
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 0 });
    const [row] = await noticeRows(id);
    expect(JSON.parse(String(row!.events))).toMatchObject([{ type: "approval_needed", task }]);

    expect(await runDurableObjectAlarm(table(id))).toBe(true);
    expect(await noticeRows(id)).toEqual([]);
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 1, delivered: 1 });
    expect(await approvalMessages("97001")).toHaveLength(1);

    // As after a death between the owner's object taking it and the row's delete: the row is there again.
    await runInDurableObject(table(id), async (_t: TableDO, state) => {
      state.storage.sql.exec("INSERT INTO notices (owner_key, events, attempts, next_at) VALUES (?, ?, 0, 0)", row!.owner_key, row!.events);
      await state.storage.setAlarm(Date.now() + 3_600_000);
    });
    expect(await runDurableObjectAlarm(table(id))).toBe(true);
    expect(await noticeRows(id)).toEqual([]);
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 0 });
    expect(await approvalMessages("97001")).toHaveLength(1);
  });
});

describe("the notice rows a write leaves", () => {
  it("writes none for an entry that notifies nobody, and none stays once the owners' objects took theirs", async () => {
    const id = "notice-rows";
    const k = await room(id);
    await bound("telegram", k.jenny, "97011");
    const before = await noticesWritten(id);
    expect((await relay.say(id, k.x, { seat: "x", kind: "say", body: "who takes #459?" })).status).toBe(201);
    expect(await noticesWritten(id)).toBe(before);

    await proposed(id, k, [CARD]);
    expect(await noticesWritten(id)).toBe(before + 1);
    expect(await noticeRows(id)).toEqual([]);
    expect(await approvalMessages("97011")).toHaveLength(1);
  });
});
