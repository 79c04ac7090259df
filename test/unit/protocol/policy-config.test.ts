/** Table configs and table creation (docs/SPEC.md §3, §6.1): validateConfig, createDraft, admit of table_opened. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  canonicalize,
  createDraft,
  fromHex,
  signCreate,
  statementOf,
  toBase64url,
  validateConfig,
  verifyStatement,
  type EntryDraft,
  type SystemDraftOf,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, copy, openConfig, refusal } from "./fixtures.js";

/** The identity point (small order) and y = p + 1 (non-canonical), as wire keys. */
const IDENTITY_KEY = toBase64url(fromHex("01" + "00".repeat(31)));
const NON_CANONICAL_KEY = toBase64url(fromHex("ee" + "ff".repeat(30) + "7f"));

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** The known-good debate config with one change applied to a copy. */
function mutated(change: (c: Record<string, any>) => void): unknown {
  const config = copy(debateConfig(k)) as Record<string, any>;
  change(config);
  return config;
}

describe("validateConfig", () => {
  it("accepts the debate, broadcast and open configs and returns them unchanged", () => {
    for (const config of [debateConfig(k), broadcastConfig(k), openConfig(k)]) {
      expect(canonicalize(validateConfig(config))).toBe(canonicalize(config));
    }
  });

  it("accepts rounds_exhausted alone where the rotation is finite (debate, broadcast with rounds)", () => {
    expect(() => validateConfig(debateConfig(k, { termination: { any: ["rounds_exhausted"] } }))).not.toThrow();
    expect(() => validateConfig(broadcastConfig(k, { termination: { any: ["rounds_exhausted"] } }))).not.toThrow();
  });

  it("accepts an open room without declared seats", () => {
    const { seats: _seats, ...room } = openConfig(k);
    expect(() => validateConfig(room)).not.toThrow();
  });

  describe("when no termination condition can fire", () => {
    it("refuses a config without termination with E_NO_TERMINATION", async () => {
      expect((await refusal(() => validateConfig(mutated((c) => delete c.termination)))).code).toBe("E_NO_TERMINATION");
    });

    it("refuses an empty termination.any with E_NO_TERMINATION", async () => {
      expect((await refusal(() => validateConfig(mutated((c) => (c.termination = { any: [] }))))).code).toBe(
        "E_NO_TERMINATION",
      );
    });

    it("refuses rounds_exhausted alone on an open table with E_NO_TERMINATION", async () => {
      const room = openConfig(k, { termination: { any: ["rounds_exhausted"] } });
      expect((await refusal(() => validateConfig(room))).code).toBe("E_NO_TERMINATION");
    });

    it("refuses rounds_exhausted alone on a broadcast without rounds with E_NO_TERMINATION", async () => {
      const unbounded = broadcastConfig(k, {
        topology: { kind: "broadcast", order: ["a", "b", "c"] },
        termination: { any: ["rounds_exhausted"] },
      });
      expect((await refusal(() => validateConfig(unbounded))).code).toBe("E_NO_TERMINATION");
    });

    it("accepts an unbounded broadcast once another condition can fire", () => {
      const unbounded = broadcastConfig(k, {
        topology: { kind: "broadcast", order: ["a", "b", "c"] },
        termination: { any: ["rounds_exhausted", { max_entries: 10 }] },
      });
      expect(() => validateConfig(unbounded)).not.toThrow();
    });
  });

  describe("when the config is malformed", () => {
    const cases: [string, (c: Record<string, any>) => void, string][] = [
      ["a bad table id", (c) => (c.id = "T 459"), "id"],
      ["an empty topic", (c) => (c.topic = ""), "topic"],
      ["a bad owner key", (c) => (c.owners.tao.public_key = "not-a-key"), "owners.tao.public_key"],
      ["an unknown owner field", (c) => (c.owners.tao.role = "admin"), "owners.tao"],
      ["no owners", (c) => (c.owners = {}), "owners"],
      ["an unknown topology kind", (c) => (c.topology.kind = "star"), "topology.kind"],
      ["zero debate rounds", (c) => (c.topology.rounds = 0), "topology.rounds"],
      ["a floor max_chars of 0", (c) => (c.floor = { max_chars: 0 }), "floor.max_chars"],
      ["an unknown termination condition", (c) => (c.termination = { any: ["never"] }), "termination.any[0]"],
      [
        "a termination budget of 0",
        (c) => (c.termination = { any: [{ budget_tokens: 0 }] }),
        "termination.any[0].budget_tokens",
      ],
      ["a bad seat name", (c) => (c.seats["Bot Tao"] = { owner: "tao" }), "seats.Bot Tao"],
      ["an unknown top-level field", (c) => (c.visibility_rules = {}), ""],
    ];

    it.each(cases)("refuses %s with E_SCHEMA naming the path", async (_what, change, path) => {
      const error = await refusal(() => validateConfig(mutated(change)));
      expect(error.code).toBe("E_SCHEMA");
      expect((error.details as { issues: { path: string }[] }).issues[0]!.path).toBe(path);
      if (path !== "") expect(error.message).toContain(`at ${path}`);
    });

    it("refuses a non-integer round count with E_NOT_CANONICAL, as the relay refuses the number itself (§2.1)", async () => {
      const error = await refusal(() => validateConfig(mutated((c) => (c.topology.rounds = 1.5))));
      expect(error.code).toBe("E_NOT_CANONICAL");
      expect(error.message).toContain("at topology.rounds");
    });

    it("refuses a value that is not an object with E_SCHEMA", async () => {
      expect((await refusal(() => validateConfig("config"))).code).toBe("E_SCHEMA");
      expect((await refusal(() => validateConfig(null))).code).toBe("E_SCHEMA");
    });
  });

  describe("when the config references what it does not declare", () => {
    const cases: [string, (c: Record<string, any>) => void, string][] = [
      ["a debate judge not declared in seats", (c) => (c.topology.judge = "referee"), "topology.judge"],
      ["a debate side not declared in seats", (c) => (c.topology.con = ["bot-jenny", "bot-ghost"]), "topology.con[1]"],
      [
        "a broadcast seat not declared in seats",
        (c) => (c.topology = { kind: "broadcast", order: ["bot-tao", "bot-ghost"] }),
        "topology.order[1]",
      ],
      [
        "a decision_by seat not declared in seats",
        (c) => (c.floor = { decision_by: ["referee"] }),
        "floor.decision_by[0]",
      ],
      ["a seat whose owner is not in owners", (c) => (c.seats.judge.owner = "mallory"), "seats.judge.owner"],
      ["two owners with one public key", (c) => (c.owners.jenny.public_key = c.owners.tao.public_key), "owners"],
      [
        "an owner key that is a small-order point (the identity)",
        (c) => (c.owners.tao.public_key = IDENTITY_KEY),
        "owners.tao.public_key",
      ],
      [
        "an owner key that is a non-canonical encoding",
        (c) => (c.owners.jenny.public_key = NON_CANONICAL_KEY),
        "owners.jenny.public_key",
      ],
      ["a seat twice in the topology", (c) => (c.topology.con = "bot-tao"), "topology"],
      ["a floor topology without declared seats", (c) => delete c.seats, "topology.pro"],
    ];

    it.each(cases)("refuses %s with E_SCHEMA naming the path", async (_what, change, path) => {
      const error = await refusal(() => validateConfig(mutated(change)));
      expect(error.code).toBe("E_SCHEMA");
      expect((error.details as { issues: { path: string }[] }).issues[0]!.path).toBe(path);
      expect(error.message).toContain(`at ${path}`);
    });
  });
});

describe("validateConfig and seat names that are Object.prototype members", () => {
  // "constructor" is a valid name that a plain `in` check would find on Object.prototype.
  it("refuses a broadcast order naming an undeclared seat called constructor with E_SCHEMA", async () => {
    const config = broadcastConfig(k, { topology: { kind: "broadcast", order: ["a", "constructor"], rounds: 1 } });
    const error = await refusal(() => validateConfig(config));
    expect(error.code).toBe("E_SCHEMA");
    expect(error.message).toContain("at topology.order[1]");
  });

  it("refuses decision_by naming an undeclared seat called constructor with E_SCHEMA", async () => {
    const error = await refusal(() => validateConfig(broadcastConfig(k, { floor: { decision_by: ["constructor"] } })));
    expect(error.code).toBe("E_SCHEMA");
    expect(error.message).toContain("at floor.decision_by[0]");
  });

  it("accepts a declared seat called constructor", () => {
    const config = broadcastConfig(k, {
      seats: { a: { owner: "tao" }, constructor: { owner: "jenny" } },
      topology: { kind: "broadcast", order: ["a", "constructor"], rounds: 1 },
    });
    expect(() => validateConfig(config)).not.toThrow();
  });
});

describe("creating a table", () => {
  const NOW = 1_800_000_000_000;
  async function openingDraft(config: TableConfig = debateConfig(k), owner = "ops") {
    return createDraft(await signCreate(k.ops, config, owner), k.relay.publicKeyText);
  }

  it("admits table_opened as entry 1 carrying the validated config, relay key and creator", async () => {
    const { entries, state } = admit(null, await openingDraft(), NOW);
    expect(entries).toEqual([{ ...(await openingDraft()), seq: 1, ts: NOW }]);
    expect(state).toMatchObject({
      table: "t-459",
      relay: k.relay.publicKeyText,
      creator: "ops",
      seq: 1,
      closed: null,
      seats: {},
    });
    expect(state.floor).toMatchObject({ started: false, holder: null });
  });

  it("records a create signature that verifies offline", async () => {
    const recorded = statementOf((await openingDraft()) as EntryDraft)!;
    expect(recorded.purpose).toBe("create");
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
  });

  describe("when the creator or its key is wrong", () => {
    it("refuses a creator who is not an owner with E_NOT_OWNER (createDraft)", async () => {
      expect((await refusal(async () => openingDraft(debateConfig(k), "mallory"))).code).toBe("E_NOT_OWNER");
    });

    it("refuses a creator who is not an owner with E_NOT_OWNER (admit)", async () => {
      const draft = await openingDraft();
      draft.data = { ...draft.data, creator: "mallory" };
      expect((await refusal(() => admit(null, draft, NOW))).code).toBe("E_NOT_OWNER");
    });

    it("refuses a draft recording another key than the creator's with E_BAD_SIGNATURE", async () => {
      const draft: SystemDraftOf<"table_opened"> = {
        ...(await openingDraft()),
        author: { ...(await openingDraft()).author, key: k.jenny.publicKeyText },
      };
      expect((await refusal(() => admit(null, draft, NOW))).code).toBe("E_BAD_SIGNATURE");
    });

    it("records a signature that fails when another key signed for the creator", async () => {
      const draft = createDraft(await signCreate(k.jenny, debateConfig(k), "ops"), k.relay.publicKeyText);
      expect(draft.author.key).toBe(k.ops.publicKeyText);
      const recorded = statementOf(draft as EntryDraft)!;
      expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(false);
    });
  });

  describe("when the draft does not fit the table", () => {
    it("refuses an entry table that differs from the config id with E_WRONG_TABLE", async () => {
      const draft = { ...(await openingDraft()), table: "t-461" };
      expect((await refusal(() => admit(null, draft, NOW))).code).toBe("E_WRONG_TABLE");
    });

    it("refuses a second table_opened with E_TABLE_EXISTS", async () => {
      const { state } = admit(null, await openingDraft(), NOW);
      expect((await refusal(async () => admit(state, await openingDraft(), NOW))).code).toBe("E_TABLE_EXISTS");
    });

    it("refuses a config without termination at create with E_NO_TERMINATION", async () => {
      const { termination: _t, ...config } = debateConfig(k);
      const request = await signCreate(k.ops, config as TableConfig, "ops");
      expect((await refusal(() => createDraft(request, k.relay.publicKeyText))).code).toBe("E_NO_TERMINATION");
    });

    it("refuses any other entry before the table exists with E_TABLE_NOT_FOUND", async () => {
      const draft = {
        ...(await openingDraft()),
        subkind: "table_closed",
        data: { reason: "decision" },
        author: null,
      } as unknown as EntryDraft;
      expect((await refusal(() => admit(null, draft, NOW))).code).toBe("E_TABLE_NOT_FOUND");
    });
  });
});
