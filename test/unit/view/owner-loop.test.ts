/**
 * The owner in the loop from the principal window (docs/VIEW.md), in real Chromium against a real
 * relay, one relay and one browser for the file: tao answers bot-tao's questions (a choice by its
 * button, free text in its field) and the seat receives them verified by tao's key; an answer after
 * the deadline is refused with the relay's E_EXPIRED shown in the page; tao instructs bot-tao and
 * the seat reads it verified; a room's deal reads pending while only jenny signed and done once tao
 * signs it by click (the seat key in tao's home records it); in an e2e room the question is opened
 * and the answer sealed with tao's room key. The page with all three parts passes
 * axe-core and has no horizontal scroll at a phone's size.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  askOwner,
  createKeyFile,
  randomNonce,
  readInstructions,
  seatKeyPath,
  type Ask,
} from "../../../src/client/node.js";
import { GuardedSeat, openText, roomKeyForNewRoom, roomState, sealText, signDeal } from "../../../src/owner/index.js";
import {
  dealStatus,
  SEALED_PREFIX,
  sha256,
  signQuestion,
  utf8,
  type QuestionRecord,
} from "../../../src/protocol/index.js";
import { expectAccessible } from "../../support/axe.js";
import { twd } from "../../support/room-fixture.js";
import { roomPages, type RoomPage } from "./window-fixture.js";

const pages = roomPages();

/** Puts bot-tao's seat key (the cast's) in tao's home, as `trestle join` would have. */
async function botTaoKey(home: string): Promise<void> {
  await createKeyFile(seatKeyPath(home, "bot-tao"), "seat", "bot-tao", { seed: sha256(utf8("seat:bot-tao")) });
}

/** bot-tao asks tao `ask` and waits (polling every 100 ms), checking a verified answer against tao's key; `seal` seals its texts (an e2e room). */
function botTaoAsks(room: RoomPage, ask: Ask, seal?: (plain: string) => Promise<string>): Promise<QuestionRecord> {
  return askOwner(room.bots.http, room.table, room.k.botTao, "bot-tao", ask, {
    clock: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    poll_ms: 100,
    owner_key: room.k.tao.publicKeyText,
    ...(seal ? { seal } : {}),
  });
}

/** How often each status label appears in the deal at `selector`: the badge says it, the lines do not repeat it. */
async function statusWordsIn(page: Page, selector: string): Promise<Record<"PENDING" | "DONE", number>> {
  const text = (await page.textContent(selector)) ?? "";
  return { PENDING: text.split("PENDING").length - 1, DONE: text.split("DONE").length - 1 };
}

const question = (room: RoomPage, state = "open") => `#loop [data-table="${room.table}"] .question-${state}`;

describe("the principal window's owner loop", { timeout: 60_000 }, () => {
  it("answers a choice question by its button; the seat receives the choice signed by tao's key", async () => {
    const room = await pages.open("loop-choice");
    const asked = botTaoAsks(room, {
      text: "Which day suits the delivery?",
      choices: ["Saturday", "Sunday"],
      wait_ms: 60_000,
    });
    await room.page.click(`${question(room)} button.choice:text-is("Sunday")`);
    const record = await asked;
    expect(record.state).toBe("answered");
    expect(record.answer).toMatchObject({ verified: true, via: "owner_key", value: "Sunday" });
    await room.page.waitForSelector(`${question(room, "answered")} .answer .badge.ok`);
    expect(await room.page.textContent(question(room, "answered"))).toContain("answered: Sunday");
  });

  it("answers a free-text question from its field; the seat receives the text signed by tao's key", async () => {
    const room = await pages.open("loop-text");
    const asked = botTaoAsks(room, { text: "What should the note to the courier say?", wait_ms: 60_000 });
    await room.page.fill(`${question(room)} input.field`, "Ring twice, the lift is broken");
    await room.page.click(`${question(room)} button:text-is("Answer (sign)")`);
    const record = await asked;
    expect(record.answer).toMatchObject({ verified: true, value: "Ring twice, the lift is broken" });
    expect(await room.page.textContent(".notice.ok")).toContain("answered bot-tao's question");
  });

  it("opens a question of an end-to-end encrypted room with tao's room key and seals the answer", async () => {
    const room = await pages.open("loop-e2e", { overrides: { room: { e2e: true }, seats: undefined } });
    const key = await roomKeyForNewRoom(room.home, room.table);
    const asked = botTaoAsks(
      room,
      { text: "Counter at which price?", choices: ["2,600 TWD", "2,800 TWD"], wait_ms: 60_000 },
      (plain) => sealText(key, { table: room.table, seat: "bot-tao", field: "question" }, plain),
    );
    await room.page.waitForSelector(`${question(room)} blockquote:text-is("Counter at which price?")`);
    await room.page.click(`${question(room)} button.choice:text-is("2,800 TWD")`);
    const { answer } = await asked;
    expect(answer?.value.startsWith(SEALED_PREFIX)).toBe(true);
    expect(await openText(key, { table: room.table, seat: "bot-tao", field: "answer" }, answer!.value)).toBe(
      "2,800 TWD",
    );
    await room.page.waitForSelector(question(room, "answered"));
    expect(await room.page.textContent("body")).not.toContain(SEALED_PREFIX);
  });

  it("shows a question's deadline on the viewer's clock and in its time zone, and how far it is, with the exact instant in a <time>", async () => {
    const room = await pages.open("loop-deadline", { zone: { timezoneId: "Asia/Kolkata", locale: "en-GB" } });
    const { page } = room;
    // Asked without waiting for the answer (askOwner would poll for the hour).
    const ts = Date.now();
    const deadline = ts + 3_600_000;
    const statement = {
      table: room.table,
      seat: "bot-tao",
      question: randomNonce(),
      text: "Deliver on Saturday?",
      choices: ["yes", "no"],
      deadline,
      ts,
    };
    await room.bots.http.askOwner(room.table, await signQuestion(room.k.botTao, statement));
    const deadlineOf = `${question(room)} .where time`;
    await page.waitForSelector(deadlineOf);
    // The page's clock, pinned 23 minutes before the deadline: the words it shows then do not depend on when the test runs.
    await page.clock.install();
    await page.reload();
    await page.waitForSelector(deadlineOf);
    await page.clock.pauseAt(deadline - 23 * 60_000 - 30_000);
    await page.clock.runFor(30_000);
    const clock = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kolkata",
      hour: "2-digit",
      minute: "2-digit",
    }).format(deadline);
    await page.locator(deadlineOf, { hasText: `${clock} (in 23 min)` }).waitFor();
    expect(await page.textContent(`${question(room)} .where`)).toMatch(
      new RegExp(`^from bot-tao · answer by (.+, )?${clock} \\(in 23 min\\)$`),
    );
    expect(await page.getAttribute(deadlineOf, "datetime")).toBe(new Date(deadline).toISOString());
    expect(await page.getAttribute(deadlineOf, "title")).toMatch(new RegExp(`${clock}:\\d\\d GMT\\+5:30$`));
  });

  describe("when the question's deadline passed", () => {
    it("shows the relay's E_EXPIRED and records no answer", async () => {
      // No poll: the window reads the question after bot-tao's entry, and nothing marks it expired before the click.
      const room = await pages.open("loop-expired", { pollMs: 600_000 });
      const asked = botTaoAsks(room, { text: "Still want the stroller?", wait_ms: 1500 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await room.bots.submit(room.k.botTao, "bot-tao", { kind: "say", body: "I asked tao." });
      await room.page.fill(`${question(room)} input.field`, "yes");
      expect((await asked).state).toBe("expired");
      await room.page.click(`${question(room)} button:text-is("Answer (sign)")`);
      await room.page.waitForSelector(".notice.bad");
      expect(await room.page.textContent(".notice.bad")).toMatch(/^E_EXPIRED: question "[^"]+" expired at /);
      const [kept] = (await room.bots.http.questions(room.table, { signer: room.k.tao, as: { owner: "tao" } }))
        .questions;
      expect(kept).toMatchObject({ state: "expired" });
      expect(kept!.answer).toBeUndefined();
    });
  });

  it("sends an instruction to bot-tao; the seat reads it verified, and the window lists it numbered", async () => {
    const room = await pages.open("loop-instruct", { prepare: botTaoKey });
    const box = `#loop [data-table="${room.table}"] .seat-loop[data-seat="bot-tao"]`;
    await room.page.fill(`${box} textarea`, "Do not go above 2,800 TWD.");
    await room.page.click(`${box} button:text-is("Send instruction (sign)")`);
    await room.page.waitForSelector(".notice.ok");
    expect(await room.page.textContent(".notice.ok")).toBe(
      "instruction #1 to bot-tao signed with tao's key; the seat reads it framed as yours",
    );
    const { instructions } = await readInstructions(
      room.bots.http,
      room.table,
      room.k.botTao,
      "bot-tao",
      0,
      room.k.tao.publicKeyText,
    );
    expect(instructions).toMatchObject([
      { n: 1, verified: true, via: "owner_key", text: "Do not go above 2,800 TWD." },
    ]);
    await room.page.waitForSelector(`${box} li[data-n="1"] .badge.ok`);
    expect(await room.page.textContent(`${box} li[data-n="1"]`)).toBe("verified #1 Do not go above 2,800 TWD.");
  });

  it("shows a deal pending while only jenny signed, and done once tao signs it by click; axe-clean with no horizontal scroll on a phone", async () => {
    const room = await pages.open("loop-deal", { overrides: { room: {}, seats: undefined }, prepare: botTaoKey });
    const { page, bots, k, table } = room;
    const jenny = new GuardedSeat({
      client: bots,
      seat: "bot-jenny",
      signer: k.botJenny,
      home: mkdtempSync(join(tmpdir(), "trestle-loop-jenny-")),
    });
    const { seq } = await bots.submit(k.botJenny, "bot-jenny", {
      kind: "offer",
      terms: twd(280000, "stroller, folds flat"),
    });
    const offer = (await jenny.transcript()).entries.find((e) => e.seq === seq)!.leaf;
    await bots.submit(k.botTao, "bot-tao", { kind: "accept", offer });
    await signDeal(jenny, k.jenny, offer);
    const deal = `#loop [data-table="${table}"] .deal[data-offer="${offer}"]`;
    await page.waitForSelector(`${deal}.deal-pending:has-text("signed by jenny")`);
    expect(await page.textContent(`${deal} .badge`)).toBe("PENDING");
    expect(await page.textContent(`${deal} .body`)).toMatch(/^not final, waiting for tao to sign\n/);
    expect(await statusWordsIn(page, deal)).toEqual({ PENDING: 1, DONE: 0 });

    const asked = botTaoAsks(room, { text: "Sign the deal?", choices: ["yes", "no"], wait_ms: 60_000 });
    await page.waitForSelector(`${question(room)} button.choice`);
    await expectAccessible(page, "the principal window's owner loop", async () => {
      expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(
        true,
      );
    });
    await page.click(`${question(room)} button.choice:text-is("yes")`);
    expect((await asked).answer?.value).toBe("yes");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.click(`${deal} button:text-is("Sign the deal (sign)")`);
    await page.waitForSelector(`${deal}.deal-done`);
    expect(await page.textContent(`${deal} .body`)).toMatch(/^both owners signed the same terms\n/);
    expect(await statusWordsIn(page, deal)).toEqual({ PENDING: 0, DONE: 1 });
    expect(await page.locator(`${deal} button`).count()).toBe(0);
    const folded = roomState(await jenny.transcript()).room!.deals[offer]!;
    expect({ status: dealStatus(folded), signers: Object.keys(folded.signed).sort() }).toEqual({
      status: "done",
      signers: ["jenny", "tao"],
    });
  });
});
