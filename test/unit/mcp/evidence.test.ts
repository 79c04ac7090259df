/**
 * The MCP server and evidence against a relay (docs/SPEC.md §8.3): a read that meets a relay
 * serving another history of the table is an E_FORK tool error that tells the model to stop; the
 * evidence is kept in the owner's home, and a later server on the same home reports it on every
 * read and answers REFUTED to a verification, even at a relay that serves the honest history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64url, type TableConfig } from "../../../src/protocol/index.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { inProcess, makeHome, textOf, type Mcp } from "../../support/mcp.js";

const SEED = toBase64url(new Uint8Array(32).fill(17));
let honest: LocalRelay;
let twin: LocalRelay;
const open: Mcp[] = [];

beforeAll(async () => {
  [honest, twin] = await Promise.all([startRelay({ signingKey: SEED }), startRelay({ signingKey: SEED })]);
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
  await Promise.all([honest?.dispose(), twin?.dispose()]);
});

async function server(settings: Parameters<typeof inProcess>[0]): Promise<Mcp> {
  const mcp = await inProcess(settings);
  open.push(mcp);
  return mcp;
}

describe("when the relay serves a history that contradicts the head this home holds", () => {
  it("stops the model with E_FORK, and every later server on this home keeps reporting it", async () => {
    const home = await makeHome(honest.url, "tao", "bot-tao");
    const table = uniqueTable("mcp-fork");
    const config: TableConfig = {
      id: table,
      topic: "a stroller, second hand",
      owners: { tao: { public_key: home.owner.publicKeyText } },
      seats: { "bot-tao": { owner: "tao" } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 100 }] },
    };
    const first = await server({ ...home.settings, table });
    expect((await first.call("trestle_create_table", { config })).isError).toBeFalsy();
    expect((await first.call("trestle_join")).isError).toBeFalsy();
    expect((await first.call("trestle_say", { text: "asking 3,600" })).isError).toBeFalsy();
    expect((await first.call("trestle_read")).isError).toBeFalsy();

    // The same relay key serving another, longer history of the table.
    const other = await tableClient(twin.url, table);
    await other.create(home.owner, "tao", config);
    await other.join(home.owner, {
      seat: "bot-tao",
      owner: "tao",
      seatKey: home.seat.publicKeyText,
      card: { summary: "bot-tao" },
      expires: Date.now() + 60_000,
    });
    for (let i = 0; i < 6; i += 1)
      await other.submit(home.seat, "bot-tao", { kind: "say", body: `another history ${i}` });

    const atTwin = await server({ ...home.settings, url: twin.url, table });
    const read = await atTwin.call("trestle_read");
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/^error E_FORK: fork/);
    expect(textOf(read)).toContain("stop and tell the owner");

    const later = await server({ ...home.settings, table });
    const again = await later.call("trestle_read");
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^error E_FORK: fork/);
    const verified = await later.call("trestle_verify_chain");
    expect(textOf(verified)).toMatch(/REFUTED/);
    expect(textOf(verified)).toContain("keeps evidence that the relay misbehaved");
  });
});
