/**
 * What a seat's agent is told of its owner's mandate (src/owner/agent-view.ts, docs/ROOMS.md "What
 * reaches the agent"): the cap and floor as amounts by default, only as rules under
 * `agent_view: "rules"`, never a never_disclose string; and, through the library (driveSeat on a
 * real relay), that under `rules` no spelling of any secret is in any turn the agent is given or
 * any event the driver reports, also after the guard refused its offer under the floor, which the
 * agent is told of at once, in another turn (at most two more; then the seat waits).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  driveSeat,
  mandateLines,
  type AgentTurn,
  type DriverEvent,
  type Mandate,
  type MandateRead,
  type SeatAgent,
} from "../../../src/owner/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { leaks, SECRETS, UNDER_FLOOR } from "../../support/owner-secrets.js";
import { mandate, strollerRoom } from "../../support/room-client.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

const money = { currency: SECRETS.currency, cap: SECRETS.cap, floor: SECRETS.floor };

/** A trusted read of a mandate with the secrets and `over`. */
function read(over: Partial<Mandate> = {}): MandateRead {
  const m: Mandate = {
    version: 1,
    table: "t-unit",
    seat: "bot-tao",
    owner: "tao",
    money,
    never_disclose: [...SECRETS.never],
    require_confirm: [],
    paused: false,
    loosened: false,
    signed_at: 1,
    ...over,
  };
  return { ok: true, mandate: m, file: { mandate: m, owner_key: "A".repeat(43), sig: "A".repeat(86) } };
}

describe("the mandate as its agent is told it", () => {
  it("gives the cap and floor as amounts by default, and never a never_disclose string", () => {
    const told = mandateLines(read()).join("\n");
    expect(told).toContain("commit at most 95,308,672.14 TWD, at least 87,642,130.95");
    expect(told).toContain("2 strings you must never write");
    expect(leaks(told)).not.toHaveLength(0);
    expect(told).not.toContain(SECRETS.never[0]);
  });

  it("under agent_view rules gives only the rules: no spelling of the cap, the floor or a never_disclose string", () => {
    const told = mandateLines(read({ agent_view: "rules" })).join("\n");
    expect(told).toBe(
      "Your owner's mandate: commit money in TWD only; an offer, counter, accept, grant or bid above your owner's cap or below their floor is refused before it is signed, and you are told when one is (your owner keeps the amounts to themselves); 2 strings you must never write (checked before signing).",
    );
    expect(leaks(told)).toEqual([]);
  });

  it("counts in the singular what there is one of: one never_disclose string, one open commitment", () => {
    const allowance = { total: 10_000, currency: "TWD", open: 1 } as const;
    const told = mandateLines(read({ never_disclose: [SECRETS.never[0]!], allowance })).join("\n");
    expect(told).toContain("; 1 string you must never write (checked before signing).");
    expect(told).toContain("and at most 1 commitment open at once (either side)");
    expect(told).not.toMatch(/\b1 (strings|commitments)\b/);
    expect(mandateLines(read({ never_disclose: [] })).join("\n")).toContain("; 0 strings you must never write");
  });
});

describe("a seat the library drives under agent_view rules", { timeout: 60_000 }, () => {
  it("gives its agent no spelling of any secret, in any turn or event, also after its offer under the floor was refused", async () => {
    const { sara } = await strollerRoom(relay.url);
    await mandate(sara, { money, never_disclose: [...SECRETS.never], agent_view: "rules" });
    const turns: AgentTurn[] = [];
    const events: DriverEvent[] = [];
    const stop = new AbortController();
    let second: () => void = () => undefined;
    const secondTurn = new Promise<void>((resolve) => (second = resolve));
    let refused: () => void = () => undefined;
    const refusal = new Promise<void>((resolve) => (refused = resolve));
    const agent: SeatAgent = {
      driver: "exec",
      async turn(turn) {
        turns.push(turn);
        if (turns.length === 1)
          return {
            data: { kind: "offer", body: "the house on Juniper Lane", terms: { amount: UNDER_FLOOR, currency: "TWD" } },
          };
        second();
        return { text: "" };
      },
    };
    const onEvent = (event: DriverEvent) => {
      events.push(event);
      if (event.type === "refused") refused();
    };
    const run = driveSeat(agent, {
      client: sara.client,
      seat: "sara-bot",
      signer: await keyOf("seat:sara-bot"),
      home: sara.home,
      signal: stop.signal,
      onEvent,
    });
    await refusal;
    // Nobody else writes: on an open table the refused agent is given its next turn at once.
    await secondTurn;
    stop.abort();
    await run;

    expect(events).toContainEqual(
      expect.objectContaining({ type: "refused", code: "E_MANDATE", reason: "floor", then: "retry" }),
    );
    expect(turns[0]!.mandate[0]).toContain("below their floor is refused before it is signed");
    expect(turns[1]!.refused).toEqual({
      code: "E_MANDATE",
      reason: "floor",
      message: "5000000000 TWD (minor units) is below the mandate's floor; it was not committed",
    });
    expect(leaks(JSON.stringify(turns))).toEqual([]);
    expect(leaks(JSON.stringify(events))).toEqual([]);
  });
});

describe("when a driven seat's agent keeps giving what its owner's guard refuses", { timeout: 60_000 }, () => {
  it("is given two more turns at once, each told of the refusal, and then the seat waits without writing", async () => {
    const { sara } = await strollerRoom(relay.url);
    await mandate(sara, { money });
    const before = (await sara.guard.transcript()).entries.length;
    const turns: AgentTurn[] = [];
    const events: DriverEvent[] = [];
    const stop = new AbortController();
    let waited: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (waited = resolve));
    const agent: SeatAgent = {
      driver: "exec",
      async turn(turn) {
        turns.push(turn);
        return {
          data: { kind: "offer", body: "the house on Juniper Lane", terms: { amount: UNDER_FLOOR, currency: "TWD" } },
        };
      },
    };
    const onEvent = (event: DriverEvent) => {
      events.push(event);
      if (event.type === "refused" && event.then === "wait") waited();
    };
    const run = driveSeat(agent, {
      client: sara.client,
      seat: "sara-bot",
      signer: await keyOf("seat:sara-bot"),
      home: sara.home,
      signal: stop.signal,
      onEvent,
    });
    await waiting;
    stop.abort();
    await run;

    expect(events.filter((e) => e.type === "refused").map((e) => (e as { then: string }).then)).toEqual([
      "retry",
      "retry",
      "wait",
    ]);
    expect(turns.map((t) => t.refused?.reason ?? null)).toEqual([null, "floor", "floor"]);
    expect((await sara.guard.transcript()).entries.length).toBe(before);
  });
});
