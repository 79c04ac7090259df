/**
 * Issue 16's MCP tools and behaviours against a real local relay: progress notifications while a
 * long call runs (only for a client that asked with a progressToken), `trestle_vote` deciding a
 * quorum table, and `trestle_open_subtable`, which only an owner who allowed it lets the model use;
 * and issue 22's `trestle_revoke_seat`, allowed the same way.
 */
import type { Notification, Progress as SdkProgress } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgress } from "../../../src/mcp/progress.js";
import { isEntry, type Signer, type TableConfig } from "../../../src/protocol/index.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { headUnmoved, RelayHttp } from "../../support/relay-http.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { blocksOf, inProcess, makeHome, type Home, type Mcp } from "../../support/mcp.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
let jenny: Signer;
let botJenny: Signer;
const open: Mcp[] = [];
beforeAll(async () => {
  [relay, jenny, botJenny] = await Promise.all([sharedRelay(), keyOf("owner:jenny"), keyOf("seat:bot-jenny")]);
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
});

/** A table (open unless `topology` says otherwise) of bot-tao (this server's seat) and bot-jenny (the harness), ending by `termination`. */
async function openTable(
  termination: TableConfig["termination"],
  settings: Partial<Home["settings"]> = {},
  topology: TableConfig["topology"] = { kind: "open" },
) {
  const home = await makeHome(relay.url, "tao", "bot-tao");
  const mcp = await inProcess({ ...home.settings, ...settings }, null, [], { progressEveryMs: 100 });
  open.push(mcp);
  const id = uniqueTable("mcp16");
  const config: TableConfig = {
    id,
    topic: "Which issue ships first?",
    owners: {
      tao: { public_key: home.owner.publicKeyText, approvals: "async" },
      jenny: { public_key: jenny.publicKeyText, approvals: "async" },
    },
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
    topology,
    termination,
  };
  expect((await mcp.call("trestle_create_table", { config })).isError).toBeFalsy();
  expect((await mcp.call("trestle_join")).isError).toBeFalsy();
  const harness = await tableClient(relay.url, id);
  await harness.join(jenny, {
    seat: "bot-jenny",
    owner: "jenny",
    seatKey: botJenny.publicKeyText,
    card: { summary: "jenny's bot" },
    expires: Date.now() + 60_000,
  });
  return { home, mcp, id, harness, config };
}

describe("progress notifications", () => {
  it("tell a client that asked what trestle_wait waits for, then keep coming while it waits", async () => {
    // bot-jenny speaks first, so bot-tao's wait has nothing to wake it until its timeout.
    const { mcp, id } = await openTable(
      { any: ["decision", { max_entries: 100 }] },
      {},
      { kind: "broadcast", order: ["bot-jenny", "bot-tao"] },
    );
    await mcp.call("trestle_read");
    const seen: SdkProgress[] = [];
    const result = await mcp.client.callTool(
      { name: "trestle_wait", arguments: { timeout_s: 2 } },
      { onprogress: (p) => seen.push(p), resetTimeoutOnProgress: true },
    );
    expect(result.isError).toBeFalsy();
    // A loaded machine may send the generic heartbeat ("trestle_wait is running (0 s)") before the wait says what it waits for.
    const told = seen.find((p) => p.message?.startsWith("waiting at"));
    expect(told?.message).toMatch(new RegExp(`^waiting at ${id} for bot-tao's turn or news, up to 2 s \\(\\d+ s\\)$`));
    expect(seen.length).toBeGreaterThan(1);
    // Progress only grows (across the process: a call asking its owner runs twice under one token on 2025-11-25).
    expect(seen.map((p) => p.progress)).toEqual(seen.map((p) => p.progress).sort((a, b) => a - b));
    expect(new Set(seen.map((p) => p.progress)).size).toBe(seen.length);
  });

  describe("when the client sent no progressToken", () => {
    it("are never sent, not even by a long call's heartbeat", async () => {
      const sent: Notification[] = [];
      const progress = startProgress(undefined, async (n) => void sent.push(n), {
        label: "trestle_wait",
        everyMs: 1,
        now: () => 0,
      });
      progress.report("waiting");
      await new Promise((resolve) => setTimeout(resolve, 20));
      progress.stop();
      expect(sent).toEqual([]);
    });
  });

  it("stop when the call has answered", async () => {
    const sent: Notification[] = [];
    const progress = startProgress("t-1", async (n) => void sent.push(n), {
      label: "trestle_wait",
      everyMs: 1,
      now: () => 0,
    });
    progress.report("waiting");
    progress.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([
      {
        method: "notifications/progress",
        params: { progressToken: "t-1", progress: expect.any(Number), message: "waiting (0 s)" },
      },
    ]);
  });
});

describe("trestle_vote", () => {
  it("votes on a proposal without the floor, and the vote that reaches the quorum decides the table", async () => {
    const { mcp, harness } = await openTable({ any: [{ quorum: { n: 2, of: "seats" } }] });
    const proposed = await harness.submit(botJenny, "bot-jenny", { kind: "proposal", body: "ship #461 first" });
    await harness.submit(botJenny, "bot-jenny", { kind: "vote", re: proposed.seq, choice: "yes", body: "" });
    const voted = await mcp.call("trestle_vote", { re: proposed.seq, choice: "yes", text: "agreed" });
    expect(blocksOf(voted)[0]).toMatch(/^vote written as entry #\d+ at .* by seat bot-tao/);
    const entries = (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items.filter(isEntry);
    expect(entries.at(-2)).toMatchObject({ kind: "system", subkind: "decision", data: { proposal: proposed.seq } });
    expect(entries.at(-1)).toMatchObject({ kind: "system", subkind: "table_closed", data: { reason: "quorum" } });
  });

  describe("when the seat already voted", () => {
    it("comes back as isError with the relay's code, and the ledger does not move", async () => {
      const { mcp, harness, id } = await openTable({ any: [{ quorum: { n: 2, of: "seats" } }] });
      const proposed = await harness.submit(botJenny, "bot-jenny", { kind: "proposal", body: "ship #461 first" });
      expect((await mcp.call("trestle_vote", { re: proposed.seq, choice: "no" })).isError).toBeFalsy();
      const again = await headUnmoved(new RelayHttp(fetch, relay.url), id, () =>
        mcp.call("trestle_vote", { re: proposed.seq, choice: "yes" }),
      );
      expect(again.isError).toBe(true);
      expect(blocksOf(again)[0]).toMatch(/^error E_NOT_ALLOWED: /);
    });
  });
});

describe("trestle_open_subtable", () => {
  const side = (id: string, parent: TableConfig) => ({
    id,
    topic: "a side room on the migration",
    owners: parent.owners,
    seats: parent.seats,
    topology: { kind: "broadcast", order: ["bot-tao", "bot-jenny"], rounds: 1 },
    termination: { any: ["rounds_exhausted"] },
  });

  it("opens a sub-table of the active table as this seat when the owner allowed it", async () => {
    const { mcp, harness, id, config } = await openTable({ any: ["decision"] }, { allowSubtables: true });
    const child = `${id}-side`.slice(0, 64);
    const result = await mcp.call("trestle_open_subtable", { config: side(child, config) });
    expect(blocksOf(result)[0]).toBe(
      `Opened sub-table ${child} of ${id} as seat bot-tao (head #2); its decision lands at ${id} when it closes.\nPass table: "${child}" to read, wait and write there; ${id} stays the active table.`,
    );
    const entries = (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items.filter(isEntry);
    expect(entries.at(-1)).toMatchObject({
      kind: "system",
      subkind: "subtable_opened",
      data: { opener: "bot-tao", config: { id: child, parent: id } },
    });
    expect((await mcp.call("trestle_read", { table: child })).isError).toBeFalsy();
  });

  describe("when the owner has not allowed sub-tables", () => {
    it("refuses with E_FORBIDDEN naming the setting, before signing anything", async () => {
      const { mcp, id, config } = await openTable({ any: ["decision"] });
      const result = await headUnmoved(new RelayHttp(fetch, relay.url), id, () =>
        mcp.call("trestle_open_subtable", { config: side(`${id}-x`.slice(0, 64), config) }),
      );
      expect(result.isError).toBe(true);
      expect(blocksOf(result)[0]).toMatch(
        /^error E_FORBIDDEN: this server's owner has not allowed sub-tables: they set TRESTLE_ALLOW_SUBTABLES=1/,
      );
    });
  });
});

describe("trestle_revoke_seat", () => {
  it("revokes the owner's own seat when the owner allowed it; the relay refuses its key after", async () => {
    const { mcp, harness, id, home } = await openTable({ any: ["decision"] }, { allowRevoke: true });
    const result = await mcp.call("trestle_revoke_seat", { seat: "bot-tao" });
    expect(blocksOf(result)[0]).toMatch(
      new RegExp(
        `^Seat bot-tao at ${id} revoked by its owner tao \\(entry #\\d+\\): it left the table, and the relay refuses its key ${home.seat.publicKeyText.slice(0, 12)}`,
      ),
    );
    const entries = (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items.filter(isEntry);
    expect(entries.slice(-2)).toMatchObject([
      { subkind: "seat_revoked", data: { owner: "tao", seat: "bot-tao", seat_key: home.seat.publicKeyText } },
      { subkind: "seat_left", data: { reason: "revoked" } },
    ]);
    const said = await mcp.call("trestle_say", { text: "the revoked key speaks" });
    expect(blocksOf(said)[0]).toMatch(/^error E_REVOKED: /);
  });

  describe("when the revocation is not the model's to make", () => {
    it("refuses with E_FORBIDDEN naming TRESTLE_ALLOW_REVOKE, before signing anything", async () => {
      const { mcp, id } = await openTable({ any: ["decision"] });
      const result = await headUnmoved(new RelayHttp(fetch, relay.url), id, () =>
        mcp.call("trestle_revoke_seat", { seat: "bot-tao" }),
      );
      expect(result.isError).toBe(true);
      expect(blocksOf(result)[0]).toMatch(
        /^error E_FORBIDDEN: this server's owner has not allowed revoking seats: they set TRESTLE_ALLOW_REVOKE=1/,
      );
    });

    it("refuses another owner's seat with E_FORBIDDEN even when allowed, and sends nothing", async () => {
      const { mcp, id } = await openTable({ any: ["decision"] }, { allowRevoke: true });
      const result = await headUnmoved(new RelayHttp(fetch, relay.url), id, () =>
        mcp.call("trestle_revoke_seat", { seat: "bot-jenny" }),
      );
      expect(blocksOf(result)[0]).toMatch(
        /^error E_FORBIDDEN: seat "bot-jenny" is jenny's: only its own owner revokes it/,
      );
    });
  });
});
