/** The HTTP client against a real relay: every route parsed by schema, relay codes kept, network and protocol failures named. */
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../src/client/index.js";
import { TrestleError, verifyExport } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { refusal } from "../../support/refused.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

describe("HttpClient", () => {
  it("reads the well-known document", async () => {
    const known = await new HttpClient({ url: relay.url }).wellKnown();
    expect(known.protocol).toBe("trestle/0.1");
    expect(known.relay_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("creates, joins, writes and reads a table over every route", async () => {
    const client = await tableClient(relay.url, uniqueTable("http-all"));
    const k = await seatDebate(client);
    const said = await client.submit(k.botTao, "bot-tao", { kind: "say", body: "ship #459 first" });
    expect(said.head.seq).toBeGreaterThan(said.seq - 1);
    expect(client.tracker.held?.seq).toBe(said.head.seq);

    const projection = await client.projection({ signer: k.botJenny, as: { seat: "bot-jenny" } });
    expect(projection.floor).toMatchObject({ holder: "bot-jenny", yours: true });
    expect(projection.tail.some((e) => e.body === "ship #459 first")).toBe(true);

    const history = await client.history({ signer: k.ops, as: { owner: "ops" } });
    expect(history.items.map((e) => e.seq)).toEqual(Array.from({ length: history.head.seq }, (_, i) => i + 1));

    expect(await client.head()).toEqual(history.head);

    const { text, report } = await client.exportLedger({ signer: k.ops, as: { owner: "ops" } });
    expect(report.verdict).toBe("CLEAN");
    expect((await verifyExport(text, { relayKey: client.tracker.relayKey })).verdict).toBe("CLEAN");
  });

  describe("when the relay refuses", () => {
    it("throws a TrestleError with the relay's code, message and details", async () => {
      const client = await tableClient(relay.url, uniqueTable("http-refuse"));
      const k = await seatDebate(client);
      const before = client.tracker.held;
      const error = await refusal(() => client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "out of turn" }));
      expect(error.code).toBe("E_NOT_FLOOR");
      expect(error.details).toMatchObject({ holder: "bot-tao" });
      expect(await client.http.head(client.table)).toEqual(before);
    });

    it("names an unknown table E_TABLE_NOT_FOUND", async () => {
      const error = await refusal(() => new HttpClient({ url: relay.url }).head("no-such-table"));
      expect(error.code).toBe("E_TABLE_NOT_FOUND");
    });
  });

  describe("when the relay cannot be reached", () => {
    it("throws E_NETWORK naming the relay", async () => {
      const error = await refusal(() => new HttpClient({ url: "http://127.0.0.1:9" }).wellKnown());
      expect(error.code).toBe("E_NETWORK");
      expect(error.message).toContain("127.0.0.1:9");
    });
  });

  describe("when the answer does not follow the protocol", () => {
    it.each([
      ["a body that is not JSON", 200, "<html>hi</html>"],
      [
        "a body with an extra field",
        200,
        JSON.stringify({ protocol: "trestle/0.1", relay_key: "A".repeat(43), limits: {}, extra: 1 }),
      ],
      ["an error without the envelope", 500, "Internal Server Error"],
      ["an error with an unknown code", 409, JSON.stringify({ error: { code: "E_MADE_UP", message: "x" } })],
    ])("throws E_BAD_RESPONSE for %s", async (_, status, body) => {
      const http = new HttpClient({ url: "http://relay.invalid", fetch: async () => new Response(body, { status }) });
      expect((await refusal(() => http.wellKnown())).code).toBe("E_BAD_RESPONSE");
    });

    it("refuses a URL that is not http or https", () => {
      expect(() => new HttpClient({ url: "ftp://relay" })).toThrowError(TrestleError);
    });
  });
});
