/**
 * A match room's seat carries its market seat's mandate (src/owner/market-rooms.ts, decision 0461):
 * the same limits for the room seat, signed again by the owner key, so the guards there judge by
 * them; a loosened mandate stays loosened, and carrying limits looser than the ones a room seat
 * already holds marks them loosened, so nothing is loosened without the owner's per-message approval.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { carryMandate, readMandate, seatFiles, setMandate, type MandateFields } from "../../../src/owner/index.js";
import { keyOf } from "../../support/table-fixture.js";

const MARKET = { table: "m-parents-swap", seat: "ana-bot" };
const ROOM = { table: `mr-${"a".repeat(40)}`, seat: "ana-room" };
const limits = (over: Partial<MandateFields> = {}): MandateFields => ({
  ...MARKET,
  owner: "ana",
  money: { currency: "TWD", cap: 500000, floor: 280000 },
  never_disclose: ["2800"],
  require_confirm: ["accept"],
  paused: false,
  ...over,
});

/** A home where ana signed her market seat's mandate with `over`, and ana's key. */
async function marketSeat(over: Partial<MandateFields> = {}, clearLoosened = true) {
  const home = mkdtempSync(join(tmpdir(), "trestle-carry-"));
  const ana = await keyOf("owner:ana");
  const file = await setMandate(seatFiles(home, MARKET.table, MARKET.seat).mandate, ana, limits(over), {
    now: 1,
    clearLoosened,
  });
  return { home, ana, source: file.mandate };
}

const roomRead = (home: string, key: string) =>
  readMandate(seatFiles(home, ROOM.table, ROOM.seat).mandate, { ...ROOM, ownerKey: key });

describe("carrying a market seat's mandate into a match room", () => {
  it("gives the room seat the same limits, for the room and the seat, signed by the owner key", async () => {
    const { home, ana, source } = await marketSeat();
    await carryMandate(home, source, { ...ROOM, ownerKey: ana.publicKeyText }, ana, 5);
    const read = await roomRead(home, ana.publicKeyText);
    expect(read).toMatchObject({
      ok: true,
      mandate: {
        ...ROOM,
        owner: "ana",
        money: { currency: "TWD", cap: 500000, floor: 280000 },
        never_disclose: ["2800"],
        require_confirm: ["accept"],
        loosened: false,
        signed_at: 5,
      },
    });
  });

  it("keeps a loosened mandate loosened", async () => {
    const { home, ana } = await marketSeat();
    const looser = await setMandate(
      seatFiles(home, MARKET.table, MARKET.seat).mandate,
      ana,
      limits({ money: { currency: "TWD", cap: 900000 } }),
      { now: 2 },
    );
    expect(looser.mandate.loosened).toBe(true);
    await carryMandate(home, looser.mandate, { ...ROOM, ownerKey: ana.publicKeyText }, ana, 5);
    expect(await roomRead(home, ana.publicKeyText)).toMatchObject({
      ok: true,
      mandate: { money: { cap: 900000 }, loosened: true },
    });
  });

  it("marks loosened limits looser than those the room seat already holds", async () => {
    const { home, ana, source } = await marketSeat();
    await setMandate(
      seatFiles(home, ROOM.table, ROOM.seat).mandate,
      ana,
      limits({ ...ROOM, money: { currency: "TWD", cap: 300000 } }),
      { now: 3 },
    );
    await carryMandate(home, source, { ...ROOM, ownerKey: ana.publicKeyText }, ana, 5);
    expect(await roomRead(home, ana.publicKeyText)).toMatchObject({
      ok: true,
      mandate: { money: { cap: 500000 }, loosened: true },
    });
  });
});
