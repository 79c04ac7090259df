/**
 * What reaches an MCP agent of its owner's mandate under `agent_view: "rules"` (docs/ROOMS.md "What
 * reaches the agent", docs/MCP.md "Rooms"), the server in process against a real relay: the
 * server's instructions, its tool list, and every tool result the seat's agent reads (the room,
 * the mandate, history, and the refusals of an offer under the floor, one over the cap and a say
 * that names a never_disclose string) hold no spelling of the floor, the cap or a never_disclose
 * string; the server offers no resources at all. The rules themselves are told.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { beforeAll, describe, expect, it } from "vitest";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { inProcess, ownerApproves, makeHome, seatMandate, textOf } from "../../support/mcp.js";
import { uniqueTable } from "../../support/client-table.js";
import { leaks, OVER_CAP, SECRETS, UNDER_FLOOR } from "../../support/owner-secrets.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

describe("an MCP seat whose mandate keeps the figures from its agent", () => {
  it("gives the agent the rules and no spelling of any secret, in instructions, tools or any result, refusals included", async () => {
    const table = uniqueTable("r-mcp-rules");
    const home = await makeHome(relay.url, "sara", "sara-bot");
    const sara = await inProcess(home.settings, ownerApproves);
    expect((await sara.call("trestle_room_create", { table, topic: "The house on Juniper Lane" })).isError).toBeFalsy();
    expect((await sara.call("trestle_join", { table })).isError).toBeFalsy();
    await seatMandate(home, table, {
      money: { currency: SECRETS.currency, cap: SECRETS.cap, floor: SECRETS.floor },
      never_disclose: [...SECRETS.never],
      agent_view: "rules",
    });

    const results: [string, CallToolResult][] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await sara.call(name, { table, ...args });
      results.push([name, result]);
      return result;
    };
    const state = textOf(await call("trestle_room_state", {}));
    expect(state).toContain(
      "commit money in TWD only; an offer, counter, accept, grant or bid above your owner's cap or below their floor is refused before it is signed, and you are told when one is",
    );
    expect(textOf(await call("trestle_mandate", {}))).toContain("2 strings you must never write");
    const under = await call("trestle_room_offer", { amount: UNDER_FLOOR, currency: "TWD", text: "the house" });
    expect(textOf(under)).toMatch(
      /error E_MANDATE: 5000000000 TWD \(minor units\) is below the mandate's floor; it was not committed/,
    );
    const over = await call("trestle_room_offer", { amount: OVER_CAP, currency: "TWD", text: "the house" });
    expect(textOf(over)).toMatch(
      /error E_MANDATE: 9900000000 TWD \(minor units\) is above the mandate's cap; it was not committed/,
    );
    const said = await call("trestle_say", { text: `our code name is ${SECRETS.never[0]}` });
    expect(textOf(said)).toMatch(/error E_MANDATE: the message contains never_disclose entry #1/);
    await call("trestle_room_offer", { amount: 9_000_000_000, currency: "TWD", text: "the house" });
    await call("trestle_room_state", {});
    await call("trestle_read", {});
    await call("trestle_history", {});
    await call("trestle_whoami", {});

    for (const [name, result] of results) expect(leaks(JSON.stringify(result)), name).toEqual([]);
    expect(leaks(sara.client.getInstructions() ?? "")).toEqual([]);
    expect(leaks(JSON.stringify(await sara.client.listTools()))).toEqual([]);
    const resources = [
      `trestle://tables/${table}/seat`,
      `trestle://tables/${table}/room`,
      `trestle://tables/${table}/pending`,
    ];
    for (const uri of resources)
      expect(leaks(JSON.stringify(await sara.client.readResource({ uri }))), uri).toEqual([]);
    expect(
      leaks(
        JSON.stringify([
          await sara.client.listResources(),
          await sara.client.listResourceTemplates(),
          await sara.client.listPrompts(),
        ]),
      ),
    ).toEqual([]);
    const negotiator = await sara.client.getPrompt({ name: "trestle_negotiator", arguments: { table } });
    expect(leaks(JSON.stringify(negotiator))).toEqual([]);
    await sara.close();
  });
});
