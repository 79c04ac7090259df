/**
 * An end-to-end encrypted room and a sealed-bid auction through the MCP server (docs/MCP.md
 * "Rooms"), two owners' servers in process against a real relay: the room key made with the room
 * and carried by the invite link, room text opened for the model on the other machine, a bid held
 * for the owner and put to them with its amount, reveals, and the settlement in the room state.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { blocksOf, inProcess, ownerApproves, ownerInWindow, makeHome, seatMandate, textOf } from "../../support/mcp.js";
import type { DecisionViewWire } from "../../../src/view/wire.js";
import { uniqueTable } from "../../support/client-table.js";

let shared: LocalRelay;
beforeAll(async () => {
  shared = await sharedRelay();
}, 60_000);
const relay = () => shared;

describe("an end-to-end encrypted room through MCP", () => {
  it("opens sealed text for the model, holds a sealed bid for the owner with its amount, and settles the auction", async () => {
    const table = uniqueTable("r-mcp-e2e");
    const saraHome = await makeHome(relay().url, "sara", "sara-bot");
    const benHome = await makeHome(relay().url, "ben", "ben-bot");
    const benSaw: DecisionViewWire[] = [];
    const sara = await inProcess(saraHome.settings, ownerApproves);
    const ben = await inProcess(benHome.settings, ownerInWindow("approve", benSaw));
    expect(
      textOf(await sara.call("trestle_room_create", { table, topic: "A second-hand stroller", e2e: true })),
    ).toContain("end-to-end encrypted");
    expect((await sara.call("trestle_join", { table })).isError).toBeFalsy();
    const invite = textOf(await sara.call("trestle_room_invite", { table, ttl_minutes: 60 }));
    expect(invite).toContain("The link carries the room key");
    const link = /Link: (\S+)/.exec(invite)![1]!;
    expect(link).toContain("&room_key=");
    expect((await ben.call("trestle_room_join", { invite: link })).isError).toBeFalsy();
    await seatMandate(saraHome, table, { money: { currency: "TWD", cap: 500000, floor: 240000 } });
    await seatMandate(benHome, table, { money: { currency: "TWD", cap: 300000 }, require_confirm: ["mechanism"] });

    expect(
      (
        await sara.call("trestle_room_offer", {
          table,
          amount: 280000,
          currency: "TWD",
          text: "folds flat, pick up Saturday",
        })
      ).isError,
    ).toBeFalsy();
    expect((await sara.call("trestle_say", { table, text: "Or we bid sealed, if you prefer." })).isError).toBeFalsy();
    const [, data] = blocksOf(await ben.call("trestle_room_state", { table }));
    expect(data).toContain("folds flat, pick up Saturday");
    expect(textOf(await ben.call("trestle_read", { table }))).toContain("Or we bid sealed, if you prefer.");

    const opened = await sara.call("trestle_room_auction", {
      table,
      buyer: "ben-bot",
      seller: "sara-bot",
      currency: "TWD",
      commit_minutes: 10,
      reveal_minutes: 10,
    });
    const auction = Number(/mechanism written as entry #(\d+)/.exec(textOf(opened))![1]);
    const bid = await ben.call("trestle_room_bid", { table, auction, amount: 300000 });
    expect(bid.isError).toBeFalsy();
    expect(benSaw[0]!.lines.join("\n")).toContain(
      `mechanism commits a sealed bid of 3,000.00 TWD (300000 minor units) as the buyer in auction #${auction}`,
    );
    expect((await sara.call("trestle_room_bid", { table, auction, amount: 250000 })).isError).toBeFalsy();
    expect((await ben.call("trestle_room_reveal", { table, auction })).isError).toBeFalsy();
    expect((await sara.call("trestle_room_reveal", { table, auction })).isError).toBeFalsy();
    const [status, after] = blocksOf(await ben.call("trestle_room_state", { table }));
    expect(status).toContain("1 auctions");
    expect(after).toMatch(
      /auction #\d+ hash [0-9a-f]{16}: ben-bot buys from sara-bot in TWD, k 1\/2: settled at entry #\d+, deal at 2,750\.00 TWD/,
    );
    expect((await ben.call("trestle_room_close", { table, outcome: "deal", auction })).isError).toBeFalsy();
    await Promise.all([sara.close(), ben.close()]);
  });
});
