/** Mandates (docs/ROOMS.md): owner-signed files read fail-closed, with a reason for each problem; loosening is marked in what the owner signs. */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  loosens,
  nextMandate,
  readMandate,
  setMandate,
  signMandate,
  writeMandateFile,
  type Mandate,
  type MandateFields,
} from "../../../src/owner/index.js";
import { TrestleError } from "../../../src/protocol/index.js";
import { keyOf } from "../../support/table-fixture.js";

const dir = () => mkdtempSync(join(tmpdir(), "trestle-mandate-"));
const FOR = { table: "r-stroller", seat: "ben-bot" };
const fields = (over: Partial<MandateFields> = {}): MandateFields => ({
  ...FOR,
  owner: "ben",
  money: { currency: "TWD", cap: 300000 },
  never_disclose: ["3000", "300000"],
  require_confirm: [],
  paused: false,
  ...over,
});
const mandate = (over: Partial<Mandate> = {}): Mandate => ({
  version: 1,
  ...fields(),
  loosened: false,
  signed_at: 1,
  ...over,
});

describe("reading a mandate", () => {
  it("trusts a mandate the seat's owner signed for this table and seat", async () => {
    const ben = await keyOf("owner:ben");
    const path = join(dir(), "m.json");
    await setMandate(path, ben, fields(), { now: 1 });
    const read = await readMandate(path, { ...FOR, ownerKey: ben.publicKeyText });
    expect(read).toMatchObject({ ok: true, mandate: { money: { cap: 300000 }, loosened: false } });
  });

  describe("when it cannot be trusted (fail closed: cap 0, nothing committed)", () => {
    it("reports a missing file as no mandate", async () => {
      const read = await readMandate(join(dir(), "none.json"), {
        ...FOR,
        ownerKey: (await keyOf("owner:ben")).publicKeyText,
      });
      expect(read).toMatchObject({ ok: false, reason: "no_mandate", message: expect.stringMatching(/cap 0/) });
    });

    it("reports a file that cannot be read", async () => {
      const path = join(dir(), "m.json");
      mkdirSync(path);
      const read = await readMandate(path, { ...FOR, ownerKey: (await keyOf("owner:ben")).publicKeyText });
      expect(read).toMatchObject({ ok: false, reason: "unreadable" });
    });

    it("reports a file that is not JSON", async () => {
      const path = join(dir(), "m.json");
      writeFileSync(path, "{ cap: 300000 ");
      expect(await readMandate(path, { ...FOR, ownerKey: (await keyOf("owner:ben")).publicKeyText })).toMatchObject({
        ok: false,
        reason: "malformed",
      });
    });

    it.each([
      ["the cap as a string", { money: { currency: "TWD", cap: "300000" } }, "mandate.money.cap"],
      ["never_disclose as one string", { never_disclose: "3000" }, "mandate.never_disclose"],
      ["paused as a word", { paused: "no" }, "mandate.paused"],
      ["a require_confirm kind that does not exist", { require_confirm: ["buy"] }, "mandate.require_confirm"],
      ["a lowercase currency", { money: { currency: "twd", cap: 1 } }, "mandate.money.currency"],
      ["an unknown key", { spending_limit: 1 }, "mandate"],
      ["a secret_amount that is neither refuse nor allow", { secret_amount: "maybe" }, "mandate.secret_amount"],
    ])("reports a mandate value of the wrong type: %s, naming %s", async (_, change, path) => {
      const ben = await keyOf("owner:ben");
      const file = await signMandate(ben, mandate());
      const target = join(dir(), "m.json");
      writeFileSync(target, JSON.stringify({ ...file, mandate: { ...file.mandate, ...change } }));
      const read = await readMandate(target, { ...FOR, ownerKey: ben.publicKeyText });
      expect(read).toMatchObject({ ok: false, reason: "malformed" });
      if (!read.ok) expect(read.message).toContain(path);
    });

    it("reports a mandate for another seat or table", async () => {
      const ben = await keyOf("owner:ben");
      const path = join(dir(), "m.json");
      writeMandateFile(path, await signMandate(ben, mandate({ seat: "other-bot" })));
      expect(await readMandate(path, { ...FOR, ownerKey: ben.publicKeyText })).toMatchObject({
        ok: false,
        reason: "malformed",
      });
    });

    it("reports a mandate signed by a key other than the seat's owner, or edited after signing", async () => {
      const ben = await keyOf("owner:ben");
      const agent = await keyOf("agent's own key");
      const path = join(dir(), "m.json");
      writeMandateFile(path, await signMandate(agent, mandate({ money: { currency: "TWD", cap: 9_000_000 } })));
      expect(await readMandate(path, { ...FOR, ownerKey: ben.publicKeyText })).toMatchObject({
        ok: false,
        reason: "not_signed",
      });
      const signed = await signMandate(ben, mandate());
      writeFileSync(
        path,
        JSON.stringify({ ...signed, mandate: { ...signed.mandate, money: { currency: "TWD", cap: 9_000_000 } } }),
      );
      expect(await readMandate(path, { ...FOR, ownerKey: ben.publicKeyText })).toMatchObject({
        ok: false,
        reason: "not_signed",
      });
    });
  });
});

describe("when a mandate to sign holds a value a mandate cannot", () => {
  it.each([
    ["a kind that does not exist", { require_confirm: ["ACCEPT"] }, "E_SCHEMA", "mandate at require_confirm[0]"],
    ["an empty never_disclose string", { never_disclose: [""] }, "E_SCHEMA", "mandate at never_disclose[0]"],
    [
      "more never_disclose strings than the limit",
      { never_disclose: Array.from({ length: 65 }, (_, i) => `s${i}`) },
      "E_TOO_LARGE",
      "mandate at never_disclose",
    ],
  ])("refuses %s with a protocol error naming the field, and writes nothing", async (_, change, code, where) => {
    const path = join(dir(), "m.json");
    const error = await setMandate(path, await keyOf("owner:ben"), fields(change), { now: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrestleError);
    expect(error).toMatchObject({ code, message: expect.stringContaining(where) });
    expect(existsSync(path)).toBe(false);
  });
});

describe("loosening", () => {
  it.each([
    ["a higher cap", { money: { currency: "TWD" as const, cap: 320000 } }],
    ["another currency", { money: { currency: "USD" as const, cap: 300000 } }],
    ["a lower floor", { money: { currency: "TWD" as const, cap: 300000, floor: 100 } }],
    ["a never_disclose string dropped", { never_disclose: ["3000"] }],
    ["a require_confirm kind dropped", { require_confirm: [] }],
    ["unpausing", { paused: false }],
    ["a secret amount allowed", { secret_amount: "allow" as const }],
  ])("marks %s as looser", (_, change) => {
    const prev = mandate({
      money: { currency: "TWD", cap: 300000, floor: 200 },
      require_confirm: ["accept"],
      paused: true,
    });
    expect(loosens(prev, { ...prev, ...change })).toBe(true);
  });

  it("does not mark a tighter or equal mandate as looser", () => {
    const prev = mandate();
    expect(loosens(prev, prev)).toBe(false);
    expect(
      loosens(
        prev,
        mandate({ money: { currency: "TWD", cap: 200000 }, never_disclose: ["3000", "300000", "more"], paused: true }),
      ),
    ).toBe(false);
    expect(loosens(prev, mandate({ money: undefined }))).toBe(false);
    expect(loosens(prev, mandate({ secret_amount: "refuse" }))).toBe(false);
    expect(loosens(mandate({ secret_amount: "allow" }), prev)).toBe(false);
  });

  it("marks showing the figures to an agent told only the rules as looser, and the reverse as not", () => {
    const rules = mandate({ agent_view: "rules" });
    expect(loosens(rules, mandate({ agent_view: "figures" }))).toBe(true);
    expect(loosens(rules, mandate())).toBe(true);
    expect(loosens(mandate(), rules)).toBe(false);
    expect(loosens(mandate({ agent_view: "figures" }), rules)).toBe(false);
  });

  describe("an allowance across a market's rooms, its markets and categories", () => {
    const prev = mandate({
      allowance: { currency: "TWD", total: 1_000_000, open: 3 },
      markets: ["m-swap", "m-books"],
      categories: ["baby-gear"],
    });

    it.each([
      ["the allowance dropped", { allowance: undefined }],
      ["a higher total", { allowance: { currency: "TWD" as const, total: 1_000_001, open: 3 } }],
      ["another currency", { allowance: { currency: "USD" as const, total: 1_000_000, open: 3 } }],
      ["more open commitments", { allowance: { currency: "TWD" as const, total: 1_000_000, open: 4 } }],
      ["the limit on open commitments dropped", { allowance: { currency: "TWD" as const, total: 1_000_000 } }],
      ["a market added", { markets: ["m-swap", "m-books", "m-bikes"] }],
      ["the markets restriction dropped", { markets: undefined }],
      ["a category added", { categories: ["baby-gear", "books"] }],
      ["the categories restriction dropped", { categories: undefined }],
    ])("marks %s as looser", (_, change) => {
      expect(loosens(prev, { ...prev, ...change })).toBe(true);
    });

    it("does not mark a smaller allowance, fewer markets or categories, or a first restriction as looser", () => {
      expect(loosens(prev, { ...prev, allowance: { currency: "TWD", total: 999_999, open: 2 } })).toBe(false);
      expect(loosens(prev, { ...prev, markets: ["m-swap"], categories: [] })).toBe(false);
      expect(loosens(mandate(), prev)).toBe(false);
    });
  });

  it("keeps a loosened mandate loosened through later tightening, until the owner clears it", () => {
    const loosened = nextMandate(
      mandate(),
      { ...fields({ money: { currency: "TWD", cap: 320000 } }), signed_at: 2 },
      false,
    );
    expect(loosened.loosened).toBe(true);
    expect(
      nextMandate(loosened, { ...fields({ money: { currency: "TWD", cap: 310000 } }), signed_at: 3 }, false).loosened,
    ).toBe(true);
    expect(
      nextMandate(loosened, { ...fields({ money: { currency: "TWD", cap: 310000 } }), signed_at: 3 }, true).loosened,
    ).toBe(false);
  });
});
