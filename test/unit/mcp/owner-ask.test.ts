/**
 * A seat and its own owner through the MCP server (docs/MCP.md): `trestle_ask_owner` refused at
 * once when nobody can answer, and `trestle_owner_instructions` showing the owner's signed
 * instruction framed as the owner's, outside any data block.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient, instructSeat } from "../../../src/client/index.js";
import { OWNER_MARK } from "../../../src/text/owner-words.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { inProcess, makeHome, textOf } from "../../support/mcp.js";
import { uniqueTable } from "../../support/client-table.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

describe("the owner through MCP", { timeout: 30_000 }, () => {
  it("shows the owner's instruction framed as the owner's and verified", async () => {
    const table = uniqueTable("ask-mcp");
    const home = await makeHome(relay.url, "sara", "sara-bot");
    const sara = await inProcess(home.settings);
    expect((await sara.call("trestle_room_create", { table, topic: "A stroller" })).isError).toBeFalsy();
    expect((await sara.call("trestle_join", { table })).isError).toBeFalsy();
    await instructSeat(new HttpClient({ url: relay.url }), table, home.owner, "sara", "sara-bot", "Do not go past 2,900.", Date.now);
    const shown = textOf(await sara.call("trestle_owner_instructions", { table }));
    expect(shown).toContain(`${OWNER_MARK}instruction #1 from your owner (verified: signed with your owner's key):\n${OWNER_MARK}Do not go past 2,900.`);

    const asked = await sara.call("trestle_ask_owner", { table, text: "Accept 2,800?", choices: ["yes", "no"] });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain("E_NO_ANSWERER");
    await sara.close();
  });
});
