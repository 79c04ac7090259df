/**
 * A room kind lives in few places (issue 24, decisions 0366 and 0388, docs/ROOMS.md "Adding a room
 * kind"): its schema in schemas/room.ts, its module in protocol/policy/kinds (policy and what it
 * commits), one line in the registry, its words in src/text/commitment.ts, and its tool's name in
 * the MCP room profile (src/mcp/profiles.ts, a list written out). Its CLI verb and
 * MCP tool are derived when its write takes only common fields (an offer or grant it names, terms,
 * an expiry); a kind with fields of its own has them written out too. Every other list (room
 * kinds, visible kinds, projection, the owner-side commitment checks, the help and tool lists) is
 * derived. Shown on the code as it is: the files whose code names a kind, and the lists that must
 * hold every kind.
 */
import { describe, expect, it } from "vitest";
import { ROOM_WRITES } from "../../../src/cli/commands/room-write.js";
import { ROOM_WRITE_TOOLS } from "../../../src/mcp/tools/room-write.js";
import { AuthoredKindSchema, isCommonKind, RoomKindSchema, VisibleKindSchema } from "../../../src/protocol/index.js";
import { sourceFiles } from "../../support/source-tree.js";

/** The source files a new room kind whose write takes only common fields touches: the only ones whose code may name such a kind. */
const KIND_FILES = [
  "src/protocol/schemas/room.ts",
  "src/protocol/policy/kinds/<kind>.ts",
  "src/protocol/policy/kinds/registry.ts",
  "src/text/commitment.ts",
  "src/mcp/profiles.ts",
];

/**
 * Code that names room kind `kind` (snake_case) as a word or as a part of an identifier in any
 * casing: `withdraw`, `"withdraw"`, `withdrawPolicy`, `WithdrawSubmissionSchema`,
 * `trestle_room_withdraw`, `room-withdraw`, but not a longer word (`withdrawn`, `withdrawal`).
 */
function kindName(kind: string): RegExp {
  const words = kind.split("_");
  const snake = words.join("[_-]");
  const camel = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return new RegExp(`(?<![a-z])${snake}(?![a-z])|${camel}(?![a-z])`);
}

describe("a room kind's files", () => {
  const files = sourceFiles();

  it(`are ${KIND_FILES.length}: only they name withdraw, the kind whose word means nothing else in the code, in any spelling`, () => {
    expect(files.length).toBeGreaterThan(200);
    // A market's verb for its own `unlist` kind borrows the English word: `market withdraw`, `marketWithdraw` (docs/CLI.md,
    // docs/MCP.md) and a chat group's `/withdraw` command (docs/CHAT-APPS.md "Groups"); in the market's and the groups' own
    // files (a path naming market or group) the word is that verb, never the room kind.
    const marketVerb = (path: string) => /market|group/.test(path);
    const naming = files
      .filter(
        (f) =>
          !marketVerb(f.path) &&
          kindName("withdraw").test(f.code.replace(/market[ _-]?withdraw/gi, "").replace(/\/withdraw\b/g, "")),
      )
      .map((f) => f.path);
    expect(naming.sort()).toEqual(KIND_FILES.map((f) => f.replace("<kind>", "withdraw")).sort());
  });

  it("see a kind's name inside identifiers and tool names, and not inside longer words", () => {
    const names = [
      "withdraw",
      '"withdraw"',
      "withdrawPolicy",
      "WithdrawSubmissionSchema",
      "trestle_room_withdraw",
      "room-withdraw",
      "deal_sign",
      "trestle_deal_sign",
      "DealSignSchema",
    ];
    expect(names.filter((n) => kindName("withdraw").test(n) || kindName("deal_sign").test(n))).toEqual(names);
    expect(
      ["withdrawn", "withdrawal", "isWithdrawn", "dealsign"].filter(
        (n) => kindName("withdraw").test(n) || kindName("deal_sign").test(n),
      ),
    ).toEqual([]);
  });

  it("are the only ones that tell a room kind by its name, but for the auction's own sealed-bid steps and the demo's scripts", () => {
    const kinds = RoomKindSchema.options.join("|");
    const test = new RegExp(`kind\\s*[!=]==\\s*"(${kinds})"|case "(${kinds})":`, "g");
    const allowed = (path: string, match: string) =>
      path.startsWith("src/protocol/policy/kinds/") ||
      // A demo narrates the kinds its script plays; a new kind is played there only by choice.
      path.startsWith("src/demo/") ||
      (match.includes("mechanism") && ["src/owner/bids.ts", "src/owner/mandate-limits.ts"].includes(path));
    const found = files
      .flatMap((f) => [...f.code.matchAll(test)].map((m) => ({ path: f.path, match: m[0] })))
      .filter((x) => !allowed(x.path, x.match));
    expect(found).toEqual([]);
  });
});

describe("the lists derived from the room kinds", () => {
  const kinds = RoomKindSchema.options;
  const written = kinds.filter((k) => k !== "mechanism");

  it("hold every room kind, in the registry's order", () => {
    expect(VisibleKindSchema.options.filter((k) => (kinds as readonly string[]).includes(k))).toEqual(kinds);
    expect(AuthoredKindSchema.options.filter((k) => (kinds as readonly string[]).includes(k))).toEqual(kinds);
  });

  it("derive the verb and tool of every kind whose write takes only common fields; grant, close, deal_sign and the auction have fields of their own", () => {
    expect(kinds.filter((k) => !isCommonKind(k))).toEqual(["grant", "close", "deal_sign", "mechanism"]);
  });

  it("give every room kind a CLI verb and an MCP tool (the auction's three each; a deal's signature is the owner's, so its verb is deal sign and no seat tool has it)", () => {
    const seats = written.filter((k) => k !== "deal_sign");
    expect(ROOM_WRITES.map((c) => c.name)).toEqual([
      ...seats.map((k) => `room ${k}`),
      "deal sign",
      "room auction",
      "room bid",
      "room reveal",
    ]);
    expect(ROOM_WRITE_TOOLS.map((t) => t.name)).toEqual([
      ...seats.map((k) => `trestle_room_${k}`),
      "trestle_room_auction",
      "trestle_room_bid",
      "trestle_room_reveal",
    ]);
  });
});
