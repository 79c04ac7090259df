/**
 * The tool list as a client sees it, and argument errors: no relay needed. Every tool is named
 * trestle_*, listed in the registry's order every time, with the trestle icon (the relay's own
 * favicon); its inputSchema is valid JSON Schema 2020-12 (compiled by Ajv's 2020 dialect) and is
 * exactly its zod schema converted, and both accept and refuse the same arguments; its outputSchema
 * is valid too and its results' structured content, refusals included, fit it.
 */
import { readFileSync } from "node:fs";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TOOL_ICONS, TRESTLE_SVG } from "../../../src/mcp/icons.js";
import { TOOLS } from "../../../src/mcp/tools/index.js";
import { blocksOf, inProcess, makeHome, type Mcp } from "../../support/mcp.js";

let mcp: Mcp;
beforeAll(async () => {
  const home = await makeHome("http://127.0.0.1:9", "tao", "bot-tao");
  mcp = await inProcess({ ...home.settings, table: "t-nowhere" });
});
afterAll(() => mcp?.close());

const ISSUE_TOOLS = [
  "whoami",
  "create_table",
  "invite",
  "join",
  "read",
  "wait",
  "say",
  "pass",
  "raise_hand",
  "propose",
  "decide",
  "approve",
  "reject",
  "progress",
  "receipt",
  "verify",
  "request",
  "respond",
  "memory",
  "history",
  "verify_chain",
  "tables",
  "close",
  "notify_status",
  // Issue 16: votes through MCP, and sub-tables where the owner allows them.
  "vote",
  "open_subtable",
  // Rooms (issue 13).
  "room_create",
  "room_invite",
  "room_join",
  "room_eject",
  "room_state",
  "room_offer",
  "room_counter",
  "room_accept",
  "room_reject",
  "room_withdraw",
  "room_grant",
  "room_revoke",
  "room_close",
  "room_send_held",
  "mandate",
  "rationale",
  "tell_owner",
  // Issue 15: the creator's delete, confirmed by the owner in person.
  "delete_table",
  // Sealed-bid auctions (issue 17).
  "room_auction",
  "room_bid",
  "room_reveal",
  // Issue 22: an owner's own seat revoked, where the owner allows it.
  "revoke_seat",
  // Issue 25: a deal both owners sign, each asked in person.
  "deal_sign",
  // Issue 25: a seat asks its own owner and reads the owner's instructions.
  "ask_owner",
  "owner_instructions",
  "owner_questions",
  // Issue 35: a market profile (list, update, withdraw, search, matches, a match's room, the deal recorded).
  "market_list",
  "market_update",
  "market_withdraw",
  "market_search",
  "market_bid",
  "market_reveal",
  "market_matches",
  "market_room",
  "market_record",
].map((name) => `trestle_${name}`);

/** Arguments each tool must accept and must refuse (by its zod schema and by its JSON Schema alike). */
const SAMPLES: Record<string, { good: Record<string, unknown>[]; bad: Record<string, unknown>[] }> = {
  trestle_say: {
    good: [{ text: "hi" }, { text: "hi", to: ["bot-jenny"], re: 3, refs: ["entry:2"], tokens: 10 }],
    bad: [{}, { text: "" }, { text: "hi", re: 0 }, { text: "hi", extra: 1 }],
  },
  trestle_propose: {
    good: [
      {
        text: "do it",
        effects: [{ owner: "tao", resource: "taskboard", action: "create_card", args: { title: "x" } }],
      },
    ],
    bad: [
      { text: "do it", effects: [] },
      { text: "do it", effects: [{ owner: "tao", resource: "Bad Resource", action: "x", args: {} }] },
    ],
  },
  trestle_room_offer: {
    good: [
      { amount: 280000, currency: "TWD" },
      { text: "pick up Saturday" },
      { amount: 1, currency: "USD", text: "x", expires_in_minutes: 30, message: "hi" },
    ],
    bad: [
      { amount: "280000", currency: "TWD" },
      { amount: 1.5, currency: "TWD" },
      { amount: 1, currency: "twd" },
      { amount: 1, currency: "TWD", terms: {} },
    ],
  },
  trestle_room_accept: {
    good: [{ offer: 7 }, { offer: "0123abcd" }],
    bad: [{}, { offer: 0 }, { offer: "xyz" }, { offer: 7, amount: 100 }],
  },
  trestle_room_close: {
    good: [{ outcome: "no_deal" }, { outcome: "deal", offer: 9 }, { outcome: "deal", auction: "0123abcd" }],
    bad: [{ outcome: "won" }, {}, { outcome: "deal", auction: 0 }],
  },
  trestle_room_auction: {
    good: [
      { buyer: "ben-bot", seller: "sara-bot", currency: "TWD", commit_minutes: 10, reveal_minutes: 10 },
      { buyer: "b", seller: "s", currency: "USD", k: { num: 1, den: 3 }, commit_minutes: 1, reveal_minutes: 1 },
    ],
    bad: [
      { buyer: "b", seller: "s", currency: "usd", commit_minutes: 10, reveal_minutes: 10 },
      { buyer: "b", seller: "s", currency: "TWD", k: { num: 1, den: 0 }, commit_minutes: 10, reveal_minutes: 10 },
      { buyer: "b", seller: "s", currency: "TWD", commit_minutes: 0, reveal_minutes: 10 },
      {},
    ],
  },
  trestle_room_bid: {
    good: [
      { auction: 3, amount: 280000 },
      { auction: "0123abcd", amount: 0 },
    ],
    bad: [{ auction: 3 }, { auction: 3, amount: 1.5 }, { auction: 3, amount: -1 }],
  },
  trestle_room_reveal: { good: [{ auction: 3 }], bad: [{}, { auction: 3, bid: 1 }] },
  trestle_wait: {
    good: [{}, { timeout_s: 0 }, { timeout_s: 300 }],
    bad: [{ timeout_s: 301 }, { timeout_s: -1 }, { timeout_s: 1.5 }],
  },
  trestle_approve: {
    good: [{ task: "12.tao" }],
    bad: [{}, { task: "tao.12" }, { task: "12.tao", verdict: "approve" }],
  },
  trestle_verify: {
    good: [{ task: "3.jenny", verdict: "pass", reason: "checked" }],
    bad: [
      { task: "3.jenny", verdict: "ok", reason: "x" },
      { task: "3.jenny", verdict: "pass", reason: "" },
    ],
  },
  trestle_create_table: {
    good: [
      {
        config: {
          id: "t-1",
          topic: "x",
          owners: { tao: { public_key: "A".repeat(43) } },
          topology: { kind: "open" },
          termination: { any: ["decision"] },
        },
      },
    ],
    bad: [{ config: { id: "T", topic: "x" } }, {}],
  },
  trestle_request: {
    good: [
      { type: "shutdown", to: ["bot-jenny"] },
      { type: "review", text: "x", request_id: "r-1", tokens: 3 },
    ],
    bad: [{}, { type: "Review" }, { type: "x", request_id: "" }],
  },
  trestle_respond: {
    good: [
      { request_id: "r-1", type: "shutdown", verdict: "approve" },
      { request_id: "r-1", type: "review", text: "ok" },
    ],
    bad: [{ request_id: "r-1" }, { request_id: "r-1", type: "review", verdict: "yes" }, { type: "review" }],
  },
  trestle_close: { good: [{}, { action: "resume" }], bad: [{ action: "close" }] },
  trestle_delete_table: { good: [{}, { table: "t-1" }], bad: [{ table: "T" }, { table: "t-1", confirm: true }] },
  trestle_vote: {
    good: [
      { re: 7, choice: "yes" },
      { re: 7, choice: "abstain", text: "no view" },
    ],
    bad: [{ re: 7 }, { re: 0, choice: "yes" }, { re: 7, choice: "maybe" }],
  },
  trestle_market_list: {
    good: [
      { side: "offer", title: "stroller", category: "baby-gear" },
      {
        side: "want",
        title: "x",
        text: "y",
        category: "books",
        quantity: 2,
        price: { currency: "USD", min: 100, max: 200 },
        expires_in_minutes: 60,
      },
    ],
    bad: [
      { side: "sell", title: "x", category: "b" },
      { side: "offer", title: "", category: "b" },
      { side: "offer", title: "x", category: "Baby Gear" },
      { side: "offer", title: "x", category: "b", price: { currency: "usd", min: 1 } },
      { side: "offer", title: "x" },
      { side: "offer", title: "x", category: "b", quantity: 0 },
    ],
  },
  trestle_market_update: {
    good: [{ listing: 12 }, { listing: "0123abcd", ask: true, title: "new" }],
    bad: [{}, { listing: 0 }, { listing: 12, ask: false }, { listing: 12, side: "want" }],
  },
  trestle_market_record: { good: [{ match: 5 }, { room: "mr-0123" }], bad: [{ match: 0 }, { room: "MR" }] },
  trestle_open_subtable: {
    good: [
      {
        config: {
          id: "t-side",
          topic: "x",
          owners: { tao: { public_key: "A".repeat(43) } },
          seats: { "bot-tao": { owner: "tao" } },
          topology: { kind: "open" },
          termination: { any: ["decision"] },
        },
      },
    ],
    bad: [{}, { config: { id: "t-side", topic: "x" } }],
  },
};

describe("tools/list", () => {
  it("lists exactly the tools the issue names, each prefixed trestle_", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ISSUE_TOOLS].sort());
    expect(TOOLS.map((t) => t.name)).toEqual(tools.map((t) => t.name));
  });

  it("gives every tool a valid JSON Schema that is exactly its zod schema, an output schema, a title, a description, annotations and the icon", async () => {
    const { tools } = await mcp.client.listTools();
    for (const listed of tools) {
      const tool = TOOLS.find((t) => t.name === listed.name)!;
      expect(listed.inputSchema).toEqual({ ...z.toJSONSchema(tool.input, { io: "input" }), type: "object" });
      expect(listed.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(() => ajv().compile(listed.inputSchema)).not.toThrow();
      expect(() => ajv().compile(listed.outputSchema!)).not.toThrow();
      expect(listed.title && listed.description && listed.annotations).toBeTruthy();
      expect(listed.icons).toEqual(TOOL_ICONS);
    }
  });

  it("lists the same tools in the registry's order on every call", async () => {
    const names = async () => (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(await names()).toEqual(await names());
    expect(await names()).toEqual(TOOLS.map((t) => t.name));
  });

  it("shows the relay's own favicon as every tool's icon", () => {
    expect(TRESTLE_SVG).toBe(readFileSync(new URL("../../../worker/site/static/favicon.svg", import.meta.url), "utf8"));
    expect(
      Buffer.from(TOOL_ICONS[0]!.src.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString("utf8"),
    ).toBe(TRESTLE_SVG);
  });

  it("answers structured content that fits each tool's output schema, a refusal's included", async () => {
    const { tools } = await mcp.client.listTools();
    const fits = (name: string) => ajv().compile(tools.find((t) => t.name === name)!.outputSchema!);
    const refused = await mcp.call("trestle_read");
    expect(refused.structuredContent).toMatchObject({ error: { code: "E_NETWORK" } });
    expect(fits("trestle_read")(refused.structuredContent)).toBe(true);
    const said = await mcp.call("trestle_say", { text: "hi", re: 0 });
    expect(fits("trestle_say")(said.structuredContent)).toBe(true);
    const who = await mcp.call("trestle_whoami");
    expect(who.isError).toBeFalsy();
    expect(fits("trestle_whoami")(who.structuredContent)).toBe(true);
    expect((who.structuredContent as { status: string[] }).status.join("\n")).toBe(blocksOf(who)[0]);
  });

  it("types every schema in every tool's JSON Schema: no bare {} (MCP Inspector's strict mode warns about one)", async () => {
    const { tools } = await mcp.client.listTools();
    const untyped = tools.flatMap((t) => untypedSchemas(t.inputSchema, t.name));
    expect(untyped).toEqual([]);
  });

  it.each(Object.entries(SAMPLES))(
    "%s: the JSON Schema and the zod schema accept and refuse the same arguments",
    async (name, { good, bad }) => {
      const { tools } = await mcp.client.listTools();
      const check = ajv().compile(tools.find((t) => t.name === name)!.inputSchema);
      const tool = TOOLS.find((t) => t.name === name)!;
      for (const args of good)
        expect([name, check(args), tool.input.safeParse(args).success]).toEqual([name, true, true]);
      for (const args of bad)
        expect([name, check(args), tool.input.safeParse(args).success]).toEqual([name, false, false]);
    },
  );
});

describe("when the arguments are wrong", () => {
  it("answers with an isError result carrying E_SCHEMA, the failing path and a hint, never a protocol error", async () => {
    const result = await mcp.call("trestle_say", { text: "hi", re: 0 });
    expect(result.isError).toBe(true);
    const [text] = blocksOf(result);
    expect(text).toMatch(/^error E_SCHEMA: arguments at re: /);
    expect(text).toMatch(/\nhint: fix the argument the message names/);
  });

  it("refuses unknown arguments instead of dropping them", async () => {
    const result = await mcp.call("trestle_pass", { text: "ok", to: ["bot-jenny"] });
    expect(result.isError).toBe(true);
    expect(blocksOf(result)[0]).toMatch(/^error E_SCHEMA: arguments: Unrecognized key/);
  });

  it("refuses effects the protocol refuses, with the protocol's own code", async () => {
    const args = { text: "x", effects: [{ owner: "tao", resource: "taskboard", action: "go", args: { n: 1.5 } }] };
    const result = await mcp.call("trestle_propose", args);
    expect(result.isError).toBe(true);
    expect(blocksOf(result)[0]).toMatch(/^error E_NOT_CANONICAL: submission at effects\[0\]\.args/);
  });

  it("refuses an amount past 2^53 - 1 or a fraction with E_NOT_CANONICAL, the relay's own code for them", async () => {
    for (const amount of [2 ** 53, 2 ** 53 + 2, 10.5]) {
      const result = await mcp.call("trestle_room_offer", { amount, currency: "TWD" });
      expect(result.isError).toBe(true);
      expect(blocksOf(result)[0]).toMatch(/^error E_NOT_CANONICAL: arguments at amount/);
    }
  });

  it("refuses an auction in a lower-case currency with E_SCHEMA at currency, before anything is signed", async () => {
    const result = await mcp.call("trestle_room_auction", {
      buyer: "ben-bot",
      seller: "bot-tao",
      currency: "usd",
      commit_minutes: 10,
      reveal_minutes: 10,
    });
    expect(result.isError).toBe(true);
    expect(blocksOf(result)[0]).toMatch(/^error E_SCHEMA: arguments at currency: /);
  });

  it("reports an unreachable relay as E_NETWORK with a hint about TRESTLE_URL", async () => {
    const result = await mcp.call("trestle_read");
    expect(result.isError).toBe(true);
    expect(blocksOf(result)[0]).toMatch(
      /^error E_NETWORK: .*\nhint: is the relay running\? the owner checks TRESTLE_URL/s,
    );
  });

  it("rejects an unknown tool name as a protocol error (the tool does not exist), its message prefixed once", async () => {
    const error = await mcp.call("trestle_fly").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    expect((error as ProtocolError).message).toBe("no tool named trestle_fly; tools/list names every tool");
  });
});

/** Ajv for JSON Schema 2020-12 (MCP's default dialect), with the formats zod writes left unchecked. */
function ajv(): Ajv2020 {
  return new Ajv2020({ strict: false, validateFormats: false });
}

/** Where a JSON Schema holds a schema: keywords whose value is a schema, a list of them, or a map of them. */
const SCHEMA_AT = {
  one: ["items", "additionalProperties", "propertyNames", "not"],
  list: ["anyOf", "oneOf", "allOf"],
  map: ["properties", "definitions", "$defs"],
};
const TYPED = ["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"];

/** The paths of every schema under `schema` that says nothing of its type (`{}`, or only a description). */
function untypedSchemas(schema: unknown, path: string): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const here = TYPED.some((key) => key in node) ? [] : [path];
  const children: [string, unknown][] = [
    ...SCHEMA_AT.one.filter((key) => key in node).map((key): [string, unknown] => [`${path}.${key}`, node[key]]),
    ...SCHEMA_AT.list.flatMap((key) =>
      Array.isArray(node[key]) ? node[key].map((s, i): [string, unknown] => [`${path}.${key}[${i}]`, s]) : [],
    ),
    ...SCHEMA_AT.map.flatMap((key) =>
      Object.entries((node[key] ?? {}) as Record<string, unknown>).map(([name, s]): [string, unknown] => [
        `${path}.${key}.${name}`,
        s,
      ]),
    ),
  ];
  return [...here, ...children.flatMap(([at, child]) => untypedSchemas(child, at))];
}
