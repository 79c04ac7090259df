/**
 * Answering the commitment gate from the principal window (docs/VIEW.md), in real Chromium against
 * a real relay: bot-tao's mandate holds every accept for tao; tao clicks Approve on the held accept
 * in the page, the window signs the answer with tao's key into the seat's journal (the same
 * answerHeld as `trestle gate approve`), and the seat then sends it; a rejection clicked after an
 * approval wins; a hash that is not pending and a seat that is not tao's are refused, the error in
 * the page and nothing recorded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { answersTo, GuardedSeat, seatFiles, setMandate } from "../../../src/owner/index.js";
import { TrestleError } from "../../../src/protocol/index.js";
import { twd } from "../../support/room-fixture.js";
import { roomPages, type RoomPage } from "./window-fixture.js";

const pages = roomPages();
let page: Page;

/** tao's window on a fresh room where bot-tao writes through the guards of tao's home, its mandate holding every accept. */
async function gatedRoom(prefix: string): Promise<{ room: RoomPage; seat: GuardedSeat }> {
  const room = await pages.open(prefix, {
    overrides: { room: {}, seats: undefined },
    prepare: async (home, table, k) => {
      const fields = { table, seat: "bot-tao", owner: "tao", money: { currency: "TWD" as const, cap: 300000 }, never_disclose: [], require_confirm: ["accept" as const], paused: false };
      await setMandate(seatFiles(home, table, "bot-tao").mandate, k.tao, fields, { now: Date.now() });
    },
  });
  page = room.page;
  return { room, seat: new GuardedSeat({ client: room.bots, seat: "bot-tao", signer: room.k.botTao, home: room.home }) };
}

/** bot-jenny offers, bot-tao accepts through its guards, and the gate holds the accept: its hash. */
async function heldAccept(room: RoomPage, seat: GuardedSeat): Promise<string> {
  const { seq } = await room.bots.submit(room.k.botJenny, "bot-jenny", { kind: "offer", terms: twd(250000, "the stroller, Saturday") });
  const offer = (await seat.transcript()).entries.find((e) => e.seq === seq)!.leaf;
  const error = await seat.send({ kind: "accept", offer }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TrestleError);
  expect((error as TrestleError).code).toBe("E_HELD");
  return String((error as TrestleError).details!.message_sha256);
}

/** The held message's actions in the page. */
const gate = (hash: string) => `#local .gate[data-hash="${hash}"]`;

describe("the principal window's gate buttons", () => {
  it("approves a held accept by click with tao's key into the seat's journal; the seat then sends it", async () => {
    const { room, seat } = await gatedRoom("gate-ok");
    const hash = await heldAccept(room, seat);
    await page.click(`${gate(hash)}.held-pending button.approve`);
    await page.waitForSelector(".notice.ok");
    expect(await page.textContent(".notice")).toBe(
      `message ${hash.slice(0, 16)}… approved with tao's key; the seat sends it (trestle gate send ${hash.slice(0, 12)} --table ${room.table} --seat bot-tao, or its agent's gate tool): this window sends nothing`,
    );
    await page.waitForSelector(`${gate(hash)}.held-approved`);
    const { approvals, rejected } = await answersTo(seat.journal, hash, room.k.tao.publicKeyText);
    expect({ approvals: approvals.length, rejected }).toEqual({ approvals: 1, rejected: false });
    const before = await room.bots.head();
    const sent = await seat.sendHeld(hash);
    expect(sent.seq).toBe(before.seq + 1);
    expect(seat.journal.ofType("sent").at(-1)).toMatchObject({ message_sha256: hash, kind: "accept", approval: approvals[0]!.nonce });
    await page.waitForSelector(`${gate(hash)}.held-sent`);
    expect(await page.locator(`${gate(hash)} button`).count()).toBe(0);
  });

  it("rejects by click after an approval, and the rejection wins: the seat cannot send it", async () => {
    const { room, seat } = await gatedRoom("gate-reject");
    const hash = await heldAccept(room, seat);
    await page.click(`${gate(hash)}.held-pending button.approve`);
    await page.waitForSelector(`${gate(hash)}.held-approved`);
    await page.click(`${gate(hash)}.held-approved button.reject`);
    await page.waitForSelector(`${gate(hash)}.held-rejected`);
    expect(await page.textContent(".notice.ok")).toBe(`message ${hash.slice(0, 16)}… rejected with tao's key; it will not be sent`);
    const before = await room.bots.head();
    const refused = await seat.sendHeld(hash).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "E_GATE", details: { reason: "rejected" } });
    expect((await room.bots.head()).seq).toBe(before.seq);
  });

  describe("when the answer names a message that is not pending or a seat that is not the owner's", () => {
    /** Clicks Approve on `hash` with the request's body rewritten by `forge`; checks the page shows `error` and the journals took no answer. */
    async function forgedClick(room: RoomPage, hash: string, forge: (body: Record<string, unknown>) => Record<string, unknown>, error: RegExp): Promise<void> {
      await page.route("**/api/gate", (route) => route.continue({ postData: JSON.stringify(forge(JSON.parse(route.request().postData()!) as Record<string, unknown>)) }));
      await page.click(`${gate(hash)}.held-pending button.approve`);
      await page.waitForSelector(".notice.bad");
      expect(await page.textContent(".notice.bad")).toMatch(error);
      expect(await page.isEnabled(`${gate(hash)} button.approve`)).toBe(true);
      for (const seat of ["bot-tao", "bot-jenny"]) {
        const journal = new GuardedSeat({ client: room.bots, seat, signer: room.k.botTao, home: room.home }).journal;
        expect(journal.ofType("gate_answer")).toEqual([]);
      }
    }

    it("refuses a forged hash with E_GATE, shown in the page", async () => {
      const { room, seat } = await gatedRoom("gate-forged");
      const hash = await heldAccept(room, seat);
      await page.waitForSelector(`${gate(hash)}.held-pending`);
      const forged = "0f".repeat(32);
      await forgedClick(room, hash, (body) => ({ ...body, message_sha256: forged }), new RegExp(`^E_GATE: no held message ${forged.slice(0, 16)}… is pending for seat bot-tao`));
    });

    it("refuses another owner's seat with E_FORBIDDEN, even for a message held in its journal here", async () => {
      const { room, seat } = await gatedRoom("gate-theirs");
      const hash = await heldAccept(room, seat);
      await page.waitForSelector(`${gate(hash)}.held-pending`);
      const theirs = seatFiles(room.home, room.table, "bot-jenny").journal;
      mkdirSync(dirname(theirs), { recursive: true });
      const held = seat.journal.ofType("held")[0]!;
      writeFileSync(theirs, `${JSON.stringify({ ...held, seat: "bot-jenny" })}\n`);
      await forgedClick(room, hash, (body) => ({ ...body, seat: "bot-jenny" }), new RegExp(`^E_FORBIDDEN: seat bot-jenny at ${room.table} is not tao's`));
    });
  });
});
