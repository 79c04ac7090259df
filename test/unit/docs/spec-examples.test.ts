/**
 * What SPEC §2.1, §3.1, §4.2 and §6.2 state precisely is what the code does: the worked entry and
 * read-authorization examples are reproduced byte for byte and accepted by the relay's own checks,
 * the capability card table is the schema, and the args-key and number rules agree with the code.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { authorizeRead } from "../../../durable-objects/table/signing/auth.js";
import {
  canonicalize,
  CapabilityCardSchema,
  EffectSchema,
  fromHex,
  HttpAuthSchema,
  nobleEd25519,
  parseInboundJson,
  parseOrThrow,
  readAuthorization,
  SaySubmissionSchema,
  signHttpAuth,
  signSubmission,
  statementOf,
  submissionStatement,
  SubmitRequestSchema,
  textSha256,
  verifyStatement,
  type Signer,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, MemoryLedger } from "../../support/table-fixture.js";
import { refusalCode } from "../../support/refused.js";

const spec = readFileSync(new URL("../../../docs/SPEC.md", import.meta.url), "utf8");

/** The text of SPEC from `start` up to the next `end`. */
function section(start: string, end: string): string {
  const from = spec.indexOf(start);
  expect(from, start).toBeGreaterThanOrEqual(0);
  return spec.slice(from, spec.indexOf(end, from + start.length));
}

/** The `label  value` lines of the first fenced block after `start`, as a map. */
function example(start: string): Map<string, string> {
  const text = section(start, "\n```\n\n");
  const block = text.slice(text.indexOf("```\n") + 4);
  return new Map(block.split("\n").map((line) => line.split(/ {2,}/) as [string, string]));
}

let seat: Signer;
beforeAll(async () => {
  const entry = example("**Entry statements.**");
  seat = await nobleEd25519.signer(fromHex(entry.get("seat seed (hex)")!));
});

describe("SPEC §4.2 entry statement example", () => {
  const ex = example("**Entry statements.**");

  it("derives the stated key from the RFC 8032 seed and hashes the body as stated", () => {
    expect(seat.publicKeyText).toBe(ex.get("seat key"));
    expect(textSha256(ex.get("body")!)).toBe(ex.get("body_sha256"));
    expect(textSha256("")).toBe(
      section("**Entry statements.**", "It holds no").match(/hashes to\s+`([0-9a-f]{64})`/)![1],
    );
  });

  it("is the statement, signature and request body the code produces, and the request passes the relay's parsing", async () => {
    const body = JSON.parse(ex.get("request body")!) as { submission: Record<string, unknown> };
    const request = await signSubmission(seat, body.submission as never);
    expect(canonicalize(submissionStatement(request.submission))).toBe(ex.get("statement"));
    expect(ex.get("signed bytes")).toBe('utf8("trestle/0.1 entry\\n") || statement');
    expect(request.sig).toBe(ex.get("sig"));
    expect(JSON.stringify(request)).toBe(ex.get("request body"));
    const parsed = parseOrThrow(SubmitRequestSchema, parseInboundJson(ex.get("request body")!));
    expect(await verifyStatement(seat.publicKeyText, "entry", submissionStatement(parsed.submission), parsed.sig)).toBe(
      true,
    );
  });
});

describe("SPEC §3.1 entry figure", () => {
  const figure = section("### 3.1 Entry shapes", "| kind |");
  const fields = (marker: string) =>
    [
      ...figure
        .split("\n")
        .find((l) => l.includes(marker))!
        .split("←")[0]!
        .matchAll(/(\w+)\??(?=[,:}\s])/g),
    ].map((m) => m[1]!);

  it("puts on the signed line exactly a say's submission fields, and on the relay's line the fields no statement holds", async () => {
    const submission = fields("← the seat's submission");
    const relay = fields("← added by the relay").filter((f) => f !== "key" && f !== "sig");
    expect(submission.sort()).toEqual(Object.keys(SaySubmissionSchema.shape).sort());
    expect(relay.sort()).toEqual(["author", "leaf", "link", "seq", "truncated", "ts"]);
    const k = await cast();
    const table = new MemoryLedger(k.relay);
    await table.create(k.ops, "ops", debateConfig(k));
    for (const [owner, name, seatName, key] of [
      [k.tao, "tao", "bot-tao", seat],
      [k.jenny, "jenny", "bot-jenny", k.botJenny],
      [k.ops, "ops", "judge", k.judge],
    ] as const) {
      await table.join(owner, name, seatName, key);
    }
    const [say] = await table.submit(seat, {
      seat: "bot-tao",
      kind: "say",
      body: "figure",
      to: ["bot-jenny"],
      re: 1,
      refs: ["entry:1"],
      budget: { tokens: 3 },
    } as never);
    const statement = statementOf(say!)!.statement as Record<string, unknown>;
    expect(Object.keys(statement).sort()).toEqual([...submission.filter((f) => f !== "body"), "body_sha256"].sort());
  });
});

describe("SPEC §6.2 read authorization example", () => {
  const ex = example("Worked example (the RFC 8032 TEST 1 key");
  const statement = JSON.parse(ex.get("statement")!) as { path: string; ts: number };
  const header = ex.get("header")!.replace(/^Authorization: /, "");

  it("is the header signHttpAuth makes for the stated statement", async () => {
    expect(canonicalize(statement)).toBe(ex.get("statement"));
    const made = await signHttpAuth(seat, {
      table: "t-459",
      as: { seat: "bot-tao" },
      method: "GET",
      path: statement.path,
      now: statement.ts,
    });
    expect(made).toBe(header);
    expect(readAuthorization(header, HttpAuthSchema, "read statement")).toEqual(JSON.parse(ex.get("token JSON")!));
    expect(JSON.parse(ex.get("token JSON")!).sig).toBe(ex.get("sig"));
  });

  it("authorizes the stated read of a table where that key holds bot-tao, at the stated time and up to 300000 ms either side", async () => {
    const k = await cast();
    const table = new MemoryLedger(k.relay);
    await table.create(k.ops, "ops", debateConfig(k));
    await table.join(k.tao, "tao", "bot-tao", seat);
    for (const now of [statement.ts, statement.ts - 300_000, statement.ts + 300_000]) {
      expect(await authorizeRead(table.state!, header, "GET", statement.path, now)).toEqual({ seat: "bot-tao" });
    }
    expect(
      await authorizeRead(table.state!, header.replace("Trestle ", "trestle  "), "GET", statement.path, statement.ts),
    ).toEqual({ seat: "bot-tao" });
  });

  describe("when the read is not the one signed", () => {
    it("refuses it a millisecond outside the window, and for another path, with E_AUTH", async () => {
      const k = await cast();
      const table = new MemoryLedger(k.relay);
      await table.create(k.ops, "ops", debateConfig(k));
      await table.join(k.tao, "tao", "bot-tao", seat);
      for (const [path, now] of [
        [statement.path, statement.ts + 300_001],
        [statement.path, statement.ts - 300_001],
        ["/tables/t-459/entries?from=1&to=51", statement.ts],
      ] as const) {
        await expect(authorizeRead(table.state!, header, "GET", path, now)).rejects.toMatchObject({ code: "E_AUTH" });
      }
    });
  });
});

describe("SPEC §4.2 capability card table", () => {
  const rows = [
    ...section("**Capability cards.**", "A *one line*").matchAll(/^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$/gm),
  ].map(([, name, type, limit]) => ({
    name: name!,
    array: type!.startsWith("array"),
    items: Number(/^(\d+) items/.exec(limit!)?.[1] ?? 0),
    chars: Number(/(\d+) chars$/.exec(limit!.trim())![1]),
  }));
  const atLimit = (row: (typeof rows)[number], extra = 0) =>
    row.array ? Array.from({ length: row.items }, () => "s".repeat(row.chars + extra)) : "s".repeat(row.chars + extra);
  const card = (fields: Record<string, unknown>) =>
    refusalCode(() => parseOrThrow(CapabilityCardSchema, fields, "card"));

  it("names exactly the schema's members", () => {
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(CapabilityCardSchema.shape).sort());
  });

  it("accepts a card with every member at its stated limit, and the empty card", () => {
    expect(card(Object.fromEntries(rows.map((r) => [r.name, atLimit(r)])))).toBe("accepted");
    expect(card({})).toBe("accepted");
  });

  describe("when one member is off", () => {
    it.each(rows.map((r) => [r.name, r] as const))(
      "refuses %s one character over its limit with E_TOO_LARGE",
      (_, row) => {
        expect(card({ [row.name]: atLimit(row, 1) })).toBe("E_TOO_LARGE");
      },
    );

    it("refuses one item too many with E_TOO_LARGE, a line with a control character, a number and an unknown member with E_SCHEMA", () => {
      const skills = rows.find((r) => r.array)!;
      expect(card({ skills: Array.from({ length: skills.items + 1 }, () => "s") })).toBe("E_TOO_LARGE");
      expect(card({ summary: "two\nlines" })).toBe("E_SCHEMA");
      expect(card({ role: "\u007f" })).toBe("E_SCHEMA");
      expect(card({ model: 4 })).toBe("E_SCHEMA");
      expect(card({ name: "bot" })).toBe("E_SCHEMA");
    });

    it("refuses a card within each member's limit but over 4096 bytes of JCS with E_TOO_LARGE", () => {
      expect(card({ skills: Array.from({ length: 32 }, () => "表".repeat(64)) })).toBe("E_TOO_LARGE");
    });
  });
});

describe("SPEC §3.1 args key rule", () => {
  const stated = new RegExp(/keys each match `(\^[^`]+\$)`/.exec(spec)![1]!);
  const effect = (key: string) =>
    refusalCode(() =>
      parseOrThrow(EffectSchema, { owner: "tao", resource: "repo", action: "merge", args: { [key]: 1 } }),
    );

  it.each([
    "a",
    "Z",
    "pr",
    "A1",
    "a_b.c-d",
    "x".repeat(64),
    "x".repeat(65),
    "é",
    "ñame",
    "Ω",
    "1x",
    "9",
    "_x",
    "__proto__",
    "-x",
    ".x",
    "a b",
    "a/b",
    "a:b",
    "",
  ])("judges the key %j as the SPEC's pattern does", (key) => {
    expect(effect(key)).toBe(stated.test(key) ? "accepted" : "E_SCHEMA");
  });

  it("refuses the keys the SPEC names as refused", () => {
    for (const key of ["é", "1x", "_x", "__proto__"])
      expect([stated.test(key), effect(key)]).toEqual([false, "E_SCHEMA"]);
  });
});

describe("SPEC §2.1 number rule", () => {
  const literal = new RegExp(`^${/literal is not `([^`]+)`/.exec(spec)![1]}$`);

  it.each([
    "0",
    "-0",
    "7",
    "-7",
    "10",
    String(2 ** 53 - 1),
    `-${2 ** 53 - 1}`,
    String(2 ** 53),
    "9007199254740993",
    "1.0",
    "1.5",
    "1e3",
    "1E3",
    "-1e-3",
    "0.0",
  ])("judges the JSON number %s as the SPEC's literal pattern and the 2^53 - 1 bound do", (n) => {
    const inProfile = literal.test(n) && Math.abs(Number(n)) <= 2 ** 53 - 1;
    expect(refusalCode(() => parseInboundJson(`[${n}]`))).toBe(inProfile ? "accepted" : "E_NOT_CANONICAL");
  });
});
