/**
 * Revoking one of the owner's seats from the principal window (docs/VIEW.md, SPEC §5.13), in real
 * Chromium against a real relay: tao clicks Revoke on bot-tao, the page asks once more and signs
 * nothing until tao says yes; then the window signs the revocation with tao's key, the seat shows
 * as REVOKED, the transcript shows tao's entry and the relay refuses bot-tao's key. A request
 * forged to name jenny's seat is refused and shown in the page, and nothing is signed.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { isEntry, TrestleError } from "../../../src/protocol/index.js";
import { roomPages, type RoomPage } from "./window-fixture.js";

const pages = roomPages();
let page: Page;

/** tao's window on a fresh room, with the card's seats shown; the selector of a seat's row. */
async function seatsShown(prefix: string): Promise<{ room: RoomPage; row: (seat: string) => string }> {
  const room = await pages.open(prefix);
  page = room.page;
  const card = `#table-${room.table}`;
  await page.click(`${card} summary:has-text("Seats")`);
  await page.waitForSelector(`${card} .seats li[data-seat="bot-tao"] button.revoke`);
  return { room, row: (seat) => `${card} .seats li[data-seat="${seat}"]` };
}

describe("the principal window's Revoke", { timeout: 30_000 }, () => {
  it("revokes the owner's seat by click after a confirm step: the seat shows REVOKED and the relay refuses its key", async () => {
    const { room, row } = await seatsShown("revoke-ok");
    expect(await page.locator(`${row("bot-jenny")} button`).count()).toBe(0);
    const before = await room.bots.head();
    await page.click(`${row("bot-tao")} button.revoke`);
    expect(await page.textContent(`${row("bot-tao")} .confirm`)).toContain("Revoke bot-tao with your owner key?");
    await page.click(`${row("bot-tao")} button.cancel`);
    expect(await page.locator(`${row("bot-tao")} .confirm`).count()).toBe(0);
    expect((await room.bots.head()).seq).toBe(before.seq);
    await page.click(`${row("bot-tao")} button.revoke`);
    await page.click(`${row("bot-tao")} button.revoke-confirm`);
    await page.waitForSelector(".notice.ok");
    expect(await page.textContent(".notice.ok")).toMatch(
      new RegExp(
        `^seat bot-tao at ${room.table} revoked with tao's key \\(entry #${before.seq + 1}\\): it left the table, and its key ${room.k.botTao.publicKeyText.slice(0, 12)}`,
      ),
    );
    await page.waitForSelector(`${row("bot-tao")}.revoked`);
    expect(await page.textContent(row("bot-tao"))).toBe(`bot-tao (owner tao, REVOKED at #${before.seq + 1}) · yours`);
    const entry = `#table-${room.table} .transcript li[data-seq="${before.seq + 1}"]`;
    await page.waitForSelector(entry);
    expect(await page.textContent(`${entry} .who`)).toBe("owner tao");
    expect(await page.textContent(`${entry} .body`)).toContain("bot-tao REVOKED by its owner tao");
    const { items } = await room.owner.history({ signer: room.k.tao, as: { owner: "tao" } });
    expect(items.filter(isEntry).at(before.seq)).toMatchObject({
      subkind: "seat_revoked",
      data: { owner: "tao", seat: "bot-tao", seat_key: room.k.botTao.publicKeyText },
      author: { key: room.k.tao.publicKeyText },
    });
    const refused = await room.bots
      .submit(room.k.botTao, "bot-tao", { kind: "say", body: "still here?" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TrestleError);
    expect((refused as TrestleError).code).toBe("E_REVOKED");
  }, 20_000);

  describe("when the request names a seat that is not the owner's", () => {
    it("refuses jenny's seat with E_FORBIDDEN, shown in the page, and signs nothing", async () => {
      const { room, row } = await seatsShown("revoke-theirs");
      const before = await room.bots.head();
      await page.route("**/api/revoke", (route) =>
        route.continue({ postData: JSON.stringify({ table: room.table, seat: "bot-jenny" }) }),
      );
      await page.click(`${row("bot-tao")} button.revoke`);
      await page.click(`${row("bot-tao")} button.revoke-confirm`);
      await page.waitForSelector(".notice.bad");
      expect(await page.textContent(".notice.bad")).toBe(
        `E_FORBIDDEN: seat "bot-jenny" is jenny's: only its own owner revokes it`,
      );
      expect(await page.isEnabled(`${row("bot-tao")} button.revoke-confirm`)).toBe(true);
      expect((await room.bots.head()).seq).toBe(before.seq);
    }, 20_000);
  });
});
