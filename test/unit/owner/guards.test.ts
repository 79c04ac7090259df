/**
 * The owner-side guards on a real relay (docs/ROOMS.md): mandates fail closed, money limits judge
 * the terms a commitment binds (an accept by its offer's amount), never_disclose covers every
 * field, and every refusal is in the journal with its reason and nothing reached the relay.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { seatFiles } from "../../../src/owner/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, offerFrom, refusedAt, strollerRoom, type Side } from "../../support/room-client.js";
import { twd } from "../../support/room-fixture.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

const lastRefusal = (side: Side) => side.guard.journal.ofType("refusal").at(-1);

describe("without a valid mandate (fail closed)", () => {
  it("commits nothing without a mandate (cap 0), and says why; a say still goes out", async () => {
    const { ben } = await strollerRoom(relay.url);
    const error = await refusedAt(ben, () => ben.guard.send({ kind: "offer", terms: twd(100) }));
    expect(error.code).toBe("E_MANDATE");
    expect(error.details).toMatchObject({ reason: "no_mandate" });
    expect(error.message).toMatch(/cap 0/);
    expect(lastRefusal(ben)).toMatchObject({
      guard: "mandate",
      code: "E_MANDATE",
      reason: "no_mandate",
      kind: "offer",
    });
    expect((await ben.guard.send({ kind: "say", body: "hello" })).seq).toBeGreaterThan(0);
  });

  it("commits nothing and writes nothing when the mandate's values have the wrong type", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben);
    const path = seatFiles(ben.home, ben.client.table, ben.seat).mandate;
    const file = JSON.parse(readFileSync(path, "utf8"));
    file.mandate.money.cap = "300000";
    writeFileSync(path, JSON.stringify(file));
    for (const input of [
      { kind: "offer" as const, terms: twd(100) },
      { kind: "say" as const, body: "hi" },
    ]) {
      const error = await refusedAt(ben, () => ben.guard.send(input));
      expect(error.details).toMatchObject({ reason: "malformed" });
      expect(error.message).toContain("mandate.money.cap");
    }
  });

  it("commits nothing under a mandate that the agent re-signed with its own key", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(
      { ...ben, ownerKey: await keyOf("an agent's own key") },
      { money: { currency: "TWD", cap: 9_000_000 } },
    );
    const error = await refusedAt(ben, () => ben.guard.send({ kind: "offer", terms: twd(100) }));
    expect(error.details).toMatchObject({ reason: "not_signed" });
  });
});

describe("money limits", () => {
  it("refuses an offer above the cap and sends one at the cap", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    expect((await refusedAt(ben, () => ben.guard.send({ kind: "offer", terms: twd(300001) }))).details).toMatchObject({
      reason: "cap",
    });
    expect((await ben.guard.send({ kind: "offer", terms: twd(300000) })).seq).toBeGreaterThan(0);
  });

  it("judges an accept without the amount by the amount it inherits from the offer", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await mandate(sara, { money: { currency: "TWD", cap: 400000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const ask = await offerFrom(sara, twd(360000));
    const error = await refusedAt(ben, () => ben.guard.send({ kind: "accept", offer: ask }));
    expect(error.details).toMatchObject({ reason: "cap" });
    expect(lastRefusal(ben)).toMatchObject({ kind: "accept", reason: "cap" });
  });

  it("refuses an amount in another currency than the mandate's", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const error = await refusedAt(ben, () =>
      ben.guard.send({ kind: "offer", terms: { amount: 100, currency: "USD" } }),
    );
    expect(error.details).toMatchObject({ reason: "currency" });
  });

  it("refuses going below the floor, also by accepting a lower counter", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await mandate(sara, { money: { currency: "TWD", cap: 400000, floor: 240000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    expect((await refusedAt(sara, () => sara.guard.send({ kind: "offer", terms: twd(239999) }))).details).toMatchObject(
      { reason: "floor" },
    );
    const low = await offerFrom(ben, twd(200000));
    expect((await refusedAt(sara, () => sara.guard.send({ kind: "accept", offer: low }))).details).toMatchObject({
      reason: "floor",
    });
  });
});

describe("never_disclose", () => {
  it.each([
    ["in a say's body", { kind: "say" as const, body: "fine, my limit is 3000" }],
    ["in full-width digits", { kind: "say" as const, body: "my limit is \uff13\uff10\uff10\uff10" }],
    [
      "in an offer's terms text",
      { kind: "offer" as const, terms: { amount: 250000, currency: "TWD" as const, text: "cap 3000 for me" } },
    ],
    ["in an amount (300000 minor units)", { kind: "offer" as const, terms: twd(300000) }],
  ])("refuses it %s, before signing, and journals the reason", async (_, input) => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { money: { currency: "TWD", cap: 300000 }, never_disclose: ["3000"] });
    const error = await refusedAt(ben, () => ben.guard.send(input));
    expect(error.code).toBe("E_MANDATE");
    expect(error.details).toMatchObject({ reason: "disclose", index: 0 });
    expect(lastRefusal(ben)).toMatchObject({ guard: "disclosure", reason: "disclose", detail: { index: 0 } });
    // The time, the table's random name and the hash are numbers and hex that may hold "3000" by chance.
    const { at: _at, table: _table, message_sha256: _hash, ...words } = lastRefusal(ben)!;
    expect(JSON.stringify(words)).not.toContain("3000");
  });
});

describe("a paused mandate", () => {
  it("writes nothing at all", async () => {
    const { ben } = await strollerRoom(relay.url);
    await mandate(ben, { paused: true });
    expect((await refusedAt(ben, () => ben.guard.send({ kind: "say", body: "hi" }))).details).toMatchObject({
      reason: "paused",
    });
  });
});
