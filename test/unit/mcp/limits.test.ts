/**
 * The MCP server at a relay with its operator limits on: a short wait is waited out and logged on
 * stderr; a write the relay refuses for longer than the server waits comes back to the model as
 * E_RATE_LIMITED with the wait and what to do; and `trestle_delete_table` deletes only on the
 * owner's confirmation in person.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, TableClient } from "../../../src/client/index.js";
import type { TableConfig } from "../../../src/protocol/index.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { limitSettings } from "../../support/limits-env.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import {
  inProcess,
  makeHome,
  ownerApproves,
  ownerInWindow,
  textOf,
  type Elicitor,
  type Home,
  type Mcp,
} from "../../support/mcp.js";
import type { DecisionViewWire } from "../../../src/view/wire.js";

let relay: LocalRelay;
const open: Mcp[] = [];
/** Signed reads per seat per minute: a reader past them waits 60 / READS s, well inside the server's 20 s. */
const READS = 20;
beforeAll(async () => {
  relay = await startRelay({ vars: limitSettings({ seat_writes_per_min: 1, reads_per_min: READS }) });
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
  await relay?.dispose();
});

/** An open table tao's server created and joined as bot-tao. */
async function seated(elicit: Elicitor, logs: string[] = []): Promise<{ mcp: Mcp; id: string; home: Home }> {
  const home = await makeHome(relay.url, "tao", "bot-tao");
  const mcp = await inProcess(home.settings, elicit, logs);
  open.push(mcp);
  const id = uniqueTable("mcp-limits");
  const config: TableConfig = {
    id,
    topic: "limits",
    owners: { tao: { public_key: home.owner.publicKeyText } },
    seats: { "bot-tao": { owner: "tao" } },
    topology: { kind: "open" },
    termination: { any: ["decision"] },
  };
  expect((await mcp.call("trestle_create_table", { config })).isError).toBeFalsy();
  expect((await mcp.call("trestle_join")).isError).toBeFalsy();
  return { mcp, id, home };
}

describe("a read the relay refuses for a few seconds", () => {
  it("is waited out, with a note on the server's stderr, and the model gets the read", async () => {
    const logs: string[] = [];
    const { mcp, id, home } = await seated(null, logs);
    // The seat's reads spent from outside the server, by a client that never waits.
    const http = new HttpClient({ url: relay.url, rateLimit: { attempts: 0 } });
    const direct = await TableClient.open({ http, table: id, relayKey: (await http.wellKnown()).relay_key });
    const reader = { signer: home.seat, as: { seat: "bot-tao" } };
    let refused: unknown = null;
    for (let i = 0; i <= READS && refused === null; i += 1)
      refused = await direct.projection(reader).then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({ code: "E_RATE_LIMITED", details: { limit: "reads_per_min" } });
    const read = await mcp.call("trestle_read", { table: id });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain("The table's prefix");
    expect(logs.join("\n")).toMatch(
      /the relay is rate limiting GET \/tables\/[^ ]+\/projection; waiting \d+ s before sending it again/,
    );
  });
});

describe("a write the relay refuses for longer than the server waits", () => {
  it("is an isError result naming E_RATE_LIMITED, the limit and the wait, with what to do", async () => {
    const { mcp } = await seated(null);
    expect((await mcp.call("trestle_say", { text: "the one write this minute" })).isError).toBeFalsy();
    const refused = await mcp.call("trestle_say", { text: "one too many" });
    expect(refused.isError).toBe(true);
    const text = textOf(refused);
    expect(text).toMatch(/^error E_RATE_LIMITED: /);
    expect(text).toContain("hint: the relay's limits were reached");
    expect(text).toMatch(/details: \{.*"limit":"seat_writes_per_min".*"retry_after_ms":\d+/);
  });
});

describe("trestle_delete_table", () => {
  it("deletes the table once the owner approves in the principal window", async () => {
    const seen: DecisionViewWire[] = [];
    const { mcp, id } = await seated(ownerInWindow("approve", seen));
    const result = await mcp.call("trestle_delete_table", { table: id });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(`Table ${id} deleted by its creator tao`);
    expect(mcp.asked[0]?.message).toContain(`DELETE table ${id}`);
    expect(seen[0]!.lines.join("\n")).toContain("This cannot be undone.");
    const head = await (await tableClient(relay.url, id)).http.head(id).catch((e: unknown) => e);
    expect(head).toMatchObject({ code: "E_TABLE_DELETED" });
  });

  describe("when the owner does not confirm", () => {
    it.each([
      ["declines", (() => ({ action: "decline" })) as Elicitor, "declined"],
      ["clicks Decline in the window", ownerInWindow("decline"), "declined"],
      ["cannot be asked", null, "no_elicitation"],
    ])("signs nothing when the owner %s (E_NOT_CONFIRMED) and the table stays", async (_what, elicit, reason) => {
      const { mcp, id } = await seated(elicit);
      const result = await mcp.call("trestle_delete_table", { table: id });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^error E_NOT_CONFIRMED: /);
      expect(textOf(result)).toContain(`"reason":"${reason}"`);
      expect((await (await tableClient(relay.url, id)).http.head(id)).table).toBe(id);
    });
  });
});
