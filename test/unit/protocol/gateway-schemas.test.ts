/**
 * The commit gateway's wire shapes (docs/SPEC.md §3, §5.6): strict and bounded, so nothing a
 * signature covers can be added or dropped, and the config's owner rules and watchdog stay in range.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EntrySchema, LIMITS, TaskIdSchema, validateConfig, type Entry } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { refusal } from "./fixtures.js";
import { approve, gatewayConfig, gatewayTable, propose } from "./gateway-fixtures.js";

let k: Cast;
let approval: Entry;
beforeAll(async () => {
  k = await cast();
  const t = await gatewayTable(k);
  approval = (await approve(t, await propose(t, "x"), "jenny"))[0]!;
});

describe("an approval entry", () => {
  it("parses as recorded, and a chat approval's shape (via, no author) parses too", () => {
    expect(EntrySchema.parse(approval)).toEqual(approval);
    expect(EntrySchema.safeParse({ ...approval, via: "line", author: null }).success).toBe(true);
  });

  describe("when a field is added, dropped or changed", () => {
    it("is refused by the schema", () => {
      expect(EntrySchema.safeParse({ ...approval, extra: 1 }).success).toBe(false);
      const { nonce: _n, ...noNonce } = approval as Entry & { nonce: string };
      expect(EntrySchema.safeParse(noNonce).success).toBe(false);
      expect(EntrySchema.safeParse({ ...approval, seat: "y" }).success).toBe(false);
      expect(EntrySchema.safeParse({ ...approval, verdict: "maybe" }).success).toBe(false);
      expect(EntrySchema.safeParse({ ...approval, via: "email" }).success).toBe(false);
    });
  });
});

describe("task ids", () => {
  it("are <seq>.<owner>", () => {
    expect(TaskIdSchema.safeParse("14.jenny").success).toBe(true);
    expect(TaskIdSchema.safeParse(`9007199254740991.${"o".repeat(64)}`).success).toBe(true);
    for (const bad of ["jenny", "0.jenny", "14.", "14.Jenny", "14.__proto__"])
      expect(TaskIdSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe("the gateway's config", () => {
  it("accepts owner rules, async approvals and a watchdog", () => {
    const config = gatewayConfig(k);
    config.owners.jenny = {
      ...config.owners.jenny!,
      approvals: "async",
      auto_approve: [{ resource: "taskboard", action: "*" }],
    };
    expect(validateConfig(config).owners.jenny).toMatchObject({ approvals: "async" });
  });

  describe("when a rule or the watchdog is out of range", () => {
    const invalid = async (change: (c: ReturnType<typeof gatewayConfig>) => void) => {
      const config = gatewayConfig(k);
      change(config);
      return (await refusal(() => validateConfig(config))).code;
    };

    it("refuses it with E_SCHEMA or E_TOO_LARGE", async () => {
      expect(await invalid((c) => (c.watchdog = { heartbeat_ms: LIMITS.heartbeat_ms_min - 1 }))).toBe("E_SCHEMA");
      expect(await invalid((c) => (c.watchdog = { heartbeat_ms: LIMITS.heartbeat_ms_max + 1 }))).toBe("E_TOO_LARGE");
      expect(await invalid((c) => (c.owners.jenny = { ...c.owners.jenny!, approvals: "never" as never }))).toBe(
        "E_SCHEMA",
      );
      expect(await invalid((c) => (c.owners.jenny = { ...c.owners.jenny!, auto_approve: [] }))).toBe("E_SCHEMA");
      expect(
        await invalid(
          (c) => (c.owners.jenny = { ...c.owners.jenny!, auto_approve: [{ resource: "Taskboard", action: "*" }] }),
        ),
      ).toBe("E_SCHEMA");
      const many = Array.from({ length: LIMITS.auto_approve_rules + 1 }, () => ({ resource: "*", action: "*" }));
      expect(await invalid((c) => (c.owners.jenny = { ...c.owners.jenny!, auto_approve: many }))).toBe("E_TOO_LARGE");
    });
  });
});
