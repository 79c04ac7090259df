/**
 * The leak gate on a real relay (issue 22, points 4 and 5; docs/ROOMS.md "never_disclose"): with
 * `never_disclose: ["2400"]`, every everyday spelling of the value is refused before signing, a
 * secret split over two messages is caught (also by a new process over the same home), an amount
 * is judged by its value under the mandate's `secret_amount`, and a refusal writes the secret down
 * nowhere: not in the journal, not in the error.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { GuardedSeat, seatFiles } from "../../../src/owner/index.js";
import { TrestleError } from "../../../src/protocol/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, refusedAt, strollerRoom, type Side } from "../../support/room-client.js";
import { twd } from "../../support/room-fixture.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
let ben: Side;
beforeAll(async () => {
  relay = await sharedRelay();
  ({ ben } = await strollerRoom(relay.url));
  await mandate(ben, { money: { currency: "TWD", cap: 400000 }, never_disclose: ["2400"] });
}, 60_000);

const lastRefusal = (side: Side) => side.guard.journal.ofType("refusal").at(-1);

describe("with never_disclose 2400, a say is refused before signing when it writes", () => {
  it.each([
    ["2,400 (comma grouping)", "I won't go under 2,400"],
    ["2 400 (space grouping)", "I won't go under 2 400"],
    ["2.400 (dot grouping)", "I won't go under 2.400"],
    ["2\u2009400 (thin space grouping)", "I won't go under 2\u2009400"],
    ["2'400 (apostrophe grouping)", "I won't go under 2'400"],
    ["2_400 (underscore grouping)", "I won't go under 2_400"],
    ["two thousand four hundred", "I won't go under two thousand four hundred"],
    ["twenty-four hundred", "I won't go under twenty-four hundred"],
    ["24 hundred", "I won't go under 24 hundred"],
    ["2.4k", "I won't go under 2.4k"],
    ["2k4", "I won't go under 2k4"],
    ["二千四百 (Chinese and Japanese)", "底價是二千四百"],
    ["兩千四 (colloquial Chinese)", "最少兩千四"],
    ["贰仟肆佰 (financial numerals)", "贰仟肆佰元"],
    ["2千4百 (Japanese with digits)", "2千4百円まで"],
    ["Arabic-Indic digits", "\u0662\u0664\u0660\u0660"],
    ["Devanagari digits", "\u0968\u096a\u0966\u0966"],
    ["2400.00", "2400.00 is the floor"],
    ["its base64", "MjQwMA=="],
    ["its URL encoding", "%32%34%30%30"],
    ["base64 of its URL encoding", "JTMyJTM0JTMwJTMw"],
    ["its hex", "32343030"],
    ["French words", "je ne descends pas sous deux mille quatre cents"],
    ["German words glued", "mindestens zweitausendvierhundert"],
    ["Cyrillic look-alike letters in English words", "tw\u043e th\u043eusand f\u043eur hundred"],
    ["digits inside words", "tw0 th0usand f0ur hundr3d"],
    ["digits apart by a comma and a space", "2, 4, 0, 0"],
    ["keycap digits", "2\ufe0f\u20e34\ufe0f\u20e30\ufe0f\u20e30\ufe0f\u20e3"],
    ["a Roman numeral", "MMCD"],
    ["hexadecimal", "0x960"],
    ["minor units", "240000 cents"],
    ["arithmetic", "1200 times 2"],
  ])("%s", async (_, body) => {
    const error = await refusedAt(ben, () => ben.guard.send({ kind: "say", body }));
    expect(error.code).toBe("E_MANDATE");
    expect(error.details).toMatchObject({ reason: "disclose", index: 0 });
    expect(lastRefusal(ben)).toMatchObject({ guard: "disclosure", reason: "disclose", detail: { index: 0 } });
  });
});

describe("a secret split over messages", () => {
  it.each([
    ["00 after 24", "24", "00"],
    ["the second half of a number split inside sentences", "my floor starts with 24, ok?", "and it ends with 00"],
  ])("refuses %s, and says it is a split", async (_, first, second) => {
    const { ben: seat } = await strollerRoom(relay.url);
    await mandate(seat, { never_disclose: ["2400"] });
    expect((await seat.guard.send({ kind: "say", body: first })).seq).toBeGreaterThan(0);
    const error = await refusedAt(seat, () => seat.guard.send({ kind: "say", body: second }));
    expect(error.details).toMatchObject({ reason: "disclose", index: 0, form: "split" });
  });

  it("catches it in a new process over the same home: the window is read from the ledger, not from memory", async () => {
    const { ben: seat } = await strollerRoom(relay.url);
    await mandate(seat, { never_disclose: ["floor"] });
    expect((await seat.guard.send({ kind: "say", body: "my fl" })).seq).toBeGreaterThan(0);
    const restarted = new GuardedSeat({
      client: seat.client,
      seat: seat.seat,
      signer: await keyOf("seat:ben-bot"),
      home: seat.home,
    });
    const error = await refusedAt(seat, () => restarted.send({ kind: "say", body: "oor is firm" }));
    expect(error.details).toMatchObject({ form: "split" });
  });
});

describe("amounts by value", () => {
  it("sends an offer of 324000 minor units, though its digits contain 2400", async () => {
    expect((await ben.guard.send({ kind: "offer", terms: twd(324000) })).seq).toBeGreaterThan(0);
  });

  it("sends a say that mentions 324,000", async () => {
    expect(
      (await ben.guard.send({ kind: "say", body: "new ones cost 324,000 at the shop, you know" })).seq,
    ).toBeGreaterThan(0);
  });

  it("refuses an offer of exactly 2,400.00 TWD under the default secret_amount (refuse)", async () => {
    const error = await refusedAt(ben, () => ben.guard.send({ kind: "offer", terms: twd(240000) }));
    expect(error.details).toMatchObject({ reason: "disclose", path: "$.terms.amount", form: "amount" });
    expect(error.message).toMatch(/secret_amount is refuse/);
  });

  it("sends that offer when the owner's mandate says secret_amount allow, and still refuses the number in text", async () => {
    const { ben: seat } = await strollerRoom(relay.url);
    await mandate(
      seat,
      { money: { currency: "TWD", cap: 400000 }, never_disclose: ["2400"], secret_amount: "allow" },
      { clearLoosened: true },
    );
    expect((await seat.guard.send({ kind: "offer", terms: twd(240000) })).seq).toBeGreaterThan(0);
    const error = await refusedAt(seat, () =>
      seat.guard.send({ kind: "offer", terms: twd(240000, "my floor: 2,400") }),
    );
    expect(error.details).toMatchObject({ path: "$.terms.text", form: "text" });
  });
});

describe("a refusal writes the secret down nowhere (issue 22, point 5)", () => {
  /** Every spelling of the secret a reader of the journal or the error could recognise. */
  const SPELLINGS = ["2400", "2,400", "2 400", "MjQwMA", "32343030", "two thousand four hundred", "二千四百"];

  let seat: Side;
  beforeAll(async () => {
    ({ ben: seat } = await strollerRoom(relay.url));
    await mandate(seat, { never_disclose: ["2400"] });
  }, 60_000);

  it.each(["2400", "MjQwMA", "two thousand four hundred", "二千四百"])(
    "keeps a secret used as a JSON key (%j) out of the journal and the error",
    async (key) => {
      const journal = seatFiles(seat.home, seat.client.table, seat.seat).journal;
      const proposal = {
        kind: "proposal" as const,
        body: "see the args",
        effects: [{ owner: "ben", resource: "stroller", action: "buy", args: { x: { [key]: 1 } } }],
      };
      const error = await refusedAt(seat, () => seat.guard.send(proposal));
      expect(error).toBeInstanceOf(TrestleError);
      expect(error.details).toMatchObject({ reason: "disclose", path: "$.effects[0].args.<key 1>.<key 1>" });
      // Hashes and times are random or clock-made digits, not the agent's words; what remains must hold no spelling of the secret.
      const scrub = (text: string) => text.replace(/[0-9a-f]{64}/g, "<hash>").replace(/"at":\d+/g, '"at":0');
      const written = [
        scrub(readFileSync(journal, "utf8")),
        scrub(error.message),
        scrub(JSON.stringify(error.details)),
      ];
      for (const text of written) for (const spelling of SPELLINGS) expect(text).not.toContain(spelling);
    },
  );
});
