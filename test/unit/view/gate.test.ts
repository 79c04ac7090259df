/**
 * Answering the commitment gate from the principal window (docs/VIEW.md), in real Chromium against
 * a real relay: bot-tao's mandate holds every accept for tao; tao clicks Approve on the held accept
 * in the page, the window signs the answer with tao's key into the seat's journal (the same
 * answerHeld as `trestle gate approve`), and the seat then sends it; a rejection clicked after an
 * approval wins; a hash that is not pending and a seat that is not tao's are refused, the error in
 * the page and nothing recorded. Before tao answers, the held card shows what the accept binds (the
 * offer it answers: amount with currency, item, expiry), and the transcript shows the terms of every
 * offer, counter and accept, in an e2e room opened with the room key tao's home holds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  answersTo,
  GuardedSeat,
  roomKeyForNewRoom,
  sealText,
  seatFiles,
  setMandate,
} from "../../../src/owner/index.js";
import { SEALED_PREFIX, TrestleError, type TableConfig } from "../../../src/protocol/index.js";
import { twd } from "../../support/room-fixture.js";
import { roomPages, textWithInstants, type RoomPage } from "./window-fixture.js";

const pages = roomPages();
let page: Page;

/** tao's window on a fresh room (`overrides` to its config) where bot-tao writes through the guards of tao's home, its mandate holding every accept. */
async function gatedRoom(
  prefix: string,
  overrides: Partial<TableConfig> = { room: {}, seats: undefined },
): Promise<{ room: RoomPage; seat: GuardedSeat }> {
  const room = await pages.open(prefix, {
    overrides,
    prepare: async (home, table, k) => {
      const fields = {
        table,
        seat: "bot-tao",
        owner: "tao",
        money: { currency: "TWD" as const, cap: 300000 },
        never_disclose: [],
        require_confirm: ["accept" as const],
        paused: false,
      };
      await setMandate(seatFiles(home, table, "bot-tao").mandate, k.tao, fields, { now: Date.now() });
    },
  });
  page = room.page;
  return {
    room,
    seat: new GuardedSeat({ client: room.bots, seat: "bot-tao", signer: room.k.botTao, home: room.home }),
  };
}

/** bot-jenny offers, bot-tao accepts through its guards, and the gate holds the accept: its hash. */
async function heldAccept(room: RoomPage, seat: GuardedSeat): Promise<string> {
  const { seq } = await room.bots.submit(room.k.botJenny, "bot-jenny", {
    kind: "offer",
    terms: twd(250000, "the stroller, Saturday"),
  });
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

describe("the principal window's gate buttons", { timeout: 30_000 }, () => {
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
    expect(seat.journal.ofType("sent").at(-1)).toMatchObject({
      message_sha256: hash,
      kind: "accept",
      approval: approvals[0]!.nonce,
    });
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
    expect(await page.textContent(".notice.ok")).toBe(
      `message ${hash.slice(0, 16)}… rejected with tao's key; it will not be sent`,
    );
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
    async function forgedClick(
      room: RoomPage,
      hash: string,
      forge: (body: Record<string, unknown>) => Record<string, unknown>,
      error: RegExp,
    ): Promise<void> {
      await page.route("**/api/gate", (route) =>
        route.continue({
          postData: JSON.stringify(forge(JSON.parse(route.request().postData()!) as Record<string, unknown>)),
        }),
      );
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
      await forgedClick(
        room,
        hash,
        (body) => ({ ...body, message_sha256: forged }),
        new RegExp(`^E_GATE: no held message ${forged.slice(0, 16)}… is pending for seat bot-tao`),
      );
    });

    it("refuses another owner's seat with E_FORBIDDEN, even for a message held in its journal here", async () => {
      const { room, seat } = await gatedRoom("gate-theirs");
      const hash = await heldAccept(room, seat);
      await page.waitForSelector(`${gate(hash)}.held-pending`);
      const theirs = seatFiles(room.home, room.table, "bot-jenny").journal;
      mkdirSync(dirname(theirs), { recursive: true });
      const held = seat.journal.ofType("held")[0]!;
      writeFileSync(theirs, `${JSON.stringify({ ...held, seat: "bot-jenny" })}\n`);
      await forgedClick(
        room,
        hash,
        (body) => ({ ...body, seat: "bot-jenny" }),
        new RegExp(`^E_FORBIDDEN: seat bot-jenny at ${room.table} is not tao's`),
      );
    });
  });
});

describe("what the window shows before tao signs", { timeout: 30_000 }, () => {
  /** The held message's card in the page. */
  const heldCard = (hash: string) => `#local .item:has(.gate[data-hash="${hash}"])`;
  /** Entry `seq`'s "about" in the transcript. */
  const about = (table: string, seq: number) => `#table-${table} .transcript li[data-seq="${seq}"] .about`;

  it("shows the held accept's terms and the offer it answers, and every offer, counter and accept in the transcript with theirs", async () => {
    const { room, seat } = await gatedRoom("gate-terms");
    const until = Date.now() + 3_600_000;
    const iso = new Date(until).toISOString();
    const first = await room.bots.submit(room.k.botJenny, "bot-jenny", {
      kind: "offer",
      terms: twd(250000, "the stroller, Saturday"),
      expires: until,
    });
    const leafOf = async (seq: number) => (await seat.transcript()).entries.find((e) => e.seq === seq)!.leaf;
    const countered = await seat.send({
      kind: "counter",
      offer: await leafOf(first.seq),
      terms: twd(240000, "stroller and rain cover"),
    });
    const second = await room.bots.submit(room.k.botJenny, "bot-jenny", {
      kind: "counter",
      offer: await leafOf(countered.seq),
      terms: twd(245000, "stroller and rain cover, Saturday"),
      expires: until,
    });
    const held = await seat.send({ kind: "accept", offer: await leafOf(second.seq), body: "deal" }).then(
      () => null,
      (e: unknown) => e as TrestleError,
    );
    const hash = String(held!.details!.message_sha256);
    const answered = `offer #${second.seq} by bot-jenny: 2,450.00 TWD (245000 minor units) for "stroller and rain cover, Saturday", expires ${iso}`;
    await page.waitForSelector(`${heldCard(hash)} .gate.held-pending`);
    expect(await textWithInstants(page, `${heldCard(hash)} .body`)).toBe(`accept ${answered}\nmessage "deal"`);

    const card = `#table-${room.table}`;
    await page.waitForSelector(`${card} .transcript li[data-seq="${second.seq}"]`);
    expect(await textWithInstants(page, about(room.table, first.seq))).toBe(
      `2,500.00 TWD (250000 minor units) for "the stroller, Saturday", expires ${iso}`,
    );
    // The expiry reads on the viewer's clock, the exact instant in the <time>'s datetime.
    expect(await page.getAttribute(`${about(room.table, first.seq)} time`, "datetime")).toBe(iso);
    expect(await page.textContent(about(room.table, first.seq))).not.toContain(iso);
    expect(await textWithInstants(page, about(room.table, countered.seq))).toBe(
      `2,400.00 TWD (240000 minor units) for "stroller and rain cover", no expiry; answers offer #${first.seq} by bot-jenny: 2,500.00 TWD (250000 minor units) for "the stroller, Saturday", expires ${iso}`,
    );
    expect(await textWithInstants(page, about(room.table, second.seq))).toContain(
      `2,450.00 TWD (245000 minor units) for "stroller and rain cover, Saturday", expires ${iso}; answers offer #${countered.seq} by bot-tao`,
    );

    await page.click(`${gate(hash)}.held-pending button.approve`);
    await page.waitForSelector(`${gate(hash)}.held-approved`);
    const sent = await seat.sendHeld(hash);
    await page.waitForSelector(`${card} .transcript li[data-seq="${sent.seq}"]`);
    expect(await page.textContent(`${card} .transcript li[data-seq="${sent.seq}"] .kind`)).toBe("accept");
    expect(await textWithInstants(page, about(room.table, sent.seq))).toBe(answered);
  });

  it("opens the terms of an end-to-end encrypted room with the room key tao's home holds, and never shows them sealed as terms", async () => {
    const { room, seat } = await gatedRoom("gate-e2e", { room: { e2e: true }, seats: undefined });
    const key = await roomKeyForNewRoom(room.home, room.table);
    const sealed = await sealText(
      key,
      { table: room.table, seat: "bot-jenny", field: "terms.text" },
      "the stroller, Saturday",
    );
    const first = await room.bots.submit(room.k.botJenny, "bot-jenny", { kind: "offer", terms: twd(250000, sealed) });
    const leaf = (await seat.transcript()).entries.find((e) => e.seq === first.seq)!.leaf;
    const held = await seat.send({ kind: "accept", offer: leaf }).then(
      () => null,
      (e: unknown) => e as TrestleError,
    );
    const hash = String(held!.details!.message_sha256);
    const answered = `offer #${first.seq} by bot-jenny: 2,500.00 TWD (250000 minor units) for "the stroller, Saturday", no expiry`;
    await page.waitForSelector(`${heldCard(hash)} .gate.held-pending`);
    expect(await page.textContent(`${heldCard(hash)} .body`)).toBe(`accept ${answered}`);
    await page.waitForSelector(`#table-${room.table} .transcript li[data-seq="${first.seq}"]`);
    expect(await page.textContent(about(room.table, first.seq))).toBe(
      `2,500.00 TWD (250000 minor units) for "the stroller, Saturday", no expiry`,
    );
    expect(await page.textContent("body")).not.toContain(SEALED_PREFIX);
  });
});
