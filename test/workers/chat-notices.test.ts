/**
 * Owner notifications survive the death of the table's object (docs/SPEC.md §11.3, decision 0532):
 * the write that causes one records it in its entry's row and arms the alarm; when the object dies
 * before its hand-off, the alarm hands it to the owner's object, and the owner's chat gets it
 * exactly once even when it is handed over twice (the event id is the owner side's idempotency
 * key). A batch an owner's object did not take waits in `notices` for the alarm's retry.
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { NOTICE_RETRY_MS } from "../../durable-objects/table/storage/notices.js";
import { writeSubmission } from "../../durable-objects/table/writing/writes.js";
import { signSubmission } from "../../src/protocol/index.js";
import type { Notification } from "../../src/protocol/schemas/notify.js";
import { drain, requests } from "../support/chat-driver.js";
import { bound, CARD, proposed, relay, room } from "../support/chat-room.js";
import { nonceOf } from "../support/table-fixture.js";

const table = (id: string) => env.TABLES.getByName(id);
const sqlOf = <T>(id: string, read: (sql: SqlStorage) => T) =>
  runInDurableObject(table(id), (_t: TableDO, state) => read(state.storage.sql));
const CURSOR = "COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'notices_through'), 0)";
/** The batches of every entry past the hand-off cursor: what the alarm would hand over. */
const unhanded = (id: string) =>
  sqlOf(id, (sql) =>
    sql.exec(`SELECT seq, notices FROM entries WHERE seq > ${CURSOR} AND notices IS NOT NULL`).toArray(),
  );
/** Whether the table has a `notices` table (made at the first batch parked, decision 0534). */
const hasNotices = (sql: SqlStorage) =>
  sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notices'").toArray().length > 0;
/** Batches an owner's object did not take, waiting for the alarm. */
const parked = (id: string) =>
  sqlOf(id, (sql) =>
    hasNotices(sql) ? sql.exec("SELECT owner_key, events, attempts, next_at FROM notices").toArray() : [],
  );
/** Whether a batch was ever parked: the `notices` table exists. */
const parkedEver = (id: string) => sqlOf(id, hasNotices);
const approvalMessages = async (chat: string) =>
  (await requests(`"chat_id":"${chat}"`)).filter((r) => JSON.stringify(r.body).includes("Approval needed"));

describe("when the table's object dies between a write and its hand-over", () => {
  it("hands the approval request over from the alarm, and the owner's chat gets it once even when it is handed over twice", async () => {
    const id = "notice-kill";
    const k = await room(id);
    await bound("telegram", k.jenny, "97001");
    const request = await signSubmission(k.x, {
      table: id,
      seat: "x",
      kind: "proposal",
      body: "put #459 on the board",
      effects: [CARD],
      nonce: nonceOf("notice-kill"),
    });
    // The write commits; the object dies before the DO shell's afterWrite starts the hand-off.
    const { seq, task } = await runInDurableObject(table(id), async (t: TableDO) => {
      const { primary, appended } = await writeSubmission(t.table, request);
      return { seq: appended.at(-1)!.seq, task: `${primary.seq}.jenny` };
    });
    await evictDurableObject(table(id));
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 0 });
    // The batches ride in the row of the append's last entry.
    const [row] = await unhanded(id);
    expect(Number(row!.seq)).toBe(seq);
    const batches = new Map(JSON.parse(String(row!.notices)) as [string, Notification[]][]);
    expect(batches.get(k.jenny.publicKeyText)).toMatchObject([{ type: "approval_needed", task }]);

    expect(await runDurableObjectAlarm(table(id))).toBe(true);
    expect(await unhanded(id)).toEqual([]);
    expect(await parked(id)).toEqual([]);
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 1, delivered: 1 });
    expect(await approvalMessages("97001")).toHaveLength(1);

    // As after a death between the owner's object taking it and the cursor's move: the entry is past the cursor again.
    await runInDurableObject(table(id), async (_t: TableDO, state) => {
      state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'notices_through'", String(seq - 1));
      await state.storage.setAlarm(Date.now() + 3_600_000);
    });
    await evictDurableObject(table(id));
    expect(await runDurableObjectAlarm(table(id))).toBe(true);
    expect(await unhanded(id)).toEqual([]);
    expect(await drain(k.jenny.publicKeyText)).toMatchObject({ sent: 0 });
    expect(await approvalMessages("97001")).toHaveLength(1);
  });
});

describe("the notice rows a write leaves", () => {
  it("writes none of their own: the entry's row carries its batches, and the cursor passes it once the owners' objects took them", async () => {
    const id = "notice-rows";
    const k = await room(id);
    await bound("telegram", k.jenny, "97011");
    expect((await relay.say(id, k.x, { seat: "x", kind: "say", body: "who takes #459?" })).status).toBe(201);
    const said = await sqlOf(
      id,
      (sql) => sql.exec("SELECT notices FROM entries ORDER BY seq DESC LIMIT 1").toArray()[0],
    );
    expect(said!.notices).toBeNull();

    await proposed(id, k, [CARD]);
    expect(await unhanded(id)).toEqual([]);
    expect(await parkedEver(id)).toBe(false);
    expect(await approvalMessages("97011")).toHaveLength(1);
  });
});

describe("a batch an owner's object did not take", () => {
  it("is parked before the cursor moves past its entry, retried by the alarm with backoff, and deleted once taken", async () => {
    const id = "notice-parked";
    const k = await room(id);
    await bound("telegram", k.jenny, "97021");
    const request = await signSubmission(k.x, {
      table: id,
      seat: "x",
      kind: "proposal",
      body: "put #459 on the board",
      effects: [CARD],
      nonce: nonceOf("notice-parked"),
    });
    await runInDurableObject(table(id), (t: TableDO) => writeSubmission(t.table, request));
    const offered: string[] = [];
    const busy = async (owner: string) => {
      offered.push(owner);
      return { ok: false as const, error: { code: "E_UNAVAILABLE" as const, message: "busy" } };
    };
    const start = await runInDurableObject(table(id), async (t: TableDO) => {
      const now = t.table.now();
      await t.table.notices.handOffDue(busy, () => now);
      return now;
    });
    expect(offered.length).toBeGreaterThan(0);
    expect(await unhanded(id)).toEqual([]);
    const waiting = await parked(id);
    expect(waiting).toHaveLength(offered.length);
    expect(waiting.every((r) => Number(r.attempts) === 1 && Number(r.next_at) === start + NOTICE_RETRY_MS)).toBe(true);

    // Not due yet: nothing is offered. Due and refused again: the wait doubles.
    offered.length = 0;
    await runInDurableObject(table(id), (t: TableDO) => t.table.notices.handOffDue(busy, () => start + 1));
    expect(offered).toEqual([]);
    await runInDurableObject(table(id), (t: TableDO) =>
      t.table.notices.handOffDue(busy, () => start + NOTICE_RETRY_MS),
    );
    expect(
      (await parked(id)).every((r) => Number(r.attempts) === 2 && Number(r.next_at) === start + 3 * NOTICE_RETRY_MS),
    ).toBe(true);

    await runInDurableObject(table(id), async (t: TableDO) => {
      await t.table.notices.handOffDue(
        async () => ({ ok: true as const, value: { queued: 1 } }),
        () => start + 3 * NOTICE_RETRY_MS,
      );
    });
    expect(await parked(id)).toEqual([]);
  });
});
