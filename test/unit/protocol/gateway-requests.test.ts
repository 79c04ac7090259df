/**
 * Request/response protocols (docs/SPEC.md §5.7): responses match a request by id and type, once;
 * a seat approving its own shutdown leaves the table and the rotation skips it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalize, fold, verifyExport } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, moves, TestTable } from "./fixtures.js";
import { refused } from "../../support/refused.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** A broadcast a -> b -> c (two rounds) with human h; every seat joined, a holds the floor. */
const table = () => TestTable.open(broadcastConfig(k), ["a", "b", "c", "h"], k);

const request = (t: TestTable, seat: string, id: string, type: string, to?: string[]) =>
  t.write(seat, { kind: "request", request_id: id, type, body: `${type}?`, ...(to ? { to } : {}) });
const respond = (t: TestTable, seat: string, id: string, type: string, verdict?: "approve" | "reject") =>
  t.write(seat, { kind: "response", request_id: id, type, body: "answer", ...(verdict ? { verdict } : {}) });

describe("a request", () => {
  it("is resolved by the first matching response, without taking the floor", async () => {
    const t = await table();
    await request(t, "b", "plan-1", "plan_approval", ["c"]);
    expect(t.state.requests["plan-1"]).toMatchObject({ seat: "b", type: "plan_approval", to: ["c"], resolved: null });
    const [answer] = await respond(t, "c", "plan-1", "plan_approval", "approve");
    expect(t.state.requests["plan-1"]!.resolved).toBe(answer!.seq);
    expect(t.holder).toBe("a");
  });

  it("of a free-form type takes a response without a verdict, from anyone but the requester when nobody is named", async () => {
    const t = await table();
    await request(t, "a", "q-1", "question");
    await refused("E_FORBIDDEN", () => respond(t, "a", "q-1", "question"), { unmoved: t });
    expect((await respond(t, "h", "q-1", "question")).map(kindOf)).toEqual(["response"]);
  });

  describe("when the response does not match", () => {
    it("refuses a response to an unknown request (E_UNKNOWN_REQUEST)", async () => {
      const t = await table();
      await refused("E_UNKNOWN_REQUEST", () => respond(t, "c", "nope", "plan_approval", "approve"), { unmoved: t });
    });

    it("refuses a response of the wrong type (E_WRONG_RESPONSE_TYPE)", async () => {
      const t = await table();
      await request(t, "b", "plan-1", "plan_approval", ["c"]);
      await refused("E_WRONG_RESPONSE_TYPE", () => respond(t, "c", "plan-1", "shutdown", "approve"), { unmoved: t });
    });

    it("refuses a response to an answered request (E_ALREADY_RESOLVED)", async () => {
      const t = await table();
      await request(t, "b", "plan-1", "plan_approval", ["c", "h"]);
      await respond(t, "c", "plan-1", "plan_approval", "reject");
      await refused("E_ALREADY_RESOLVED", () => respond(t, "h", "plan-1", "plan_approval", "approve"), { unmoved: t });
    });

    it("refuses a response from a seat the request does not name (E_FORBIDDEN)", async () => {
      const t = await table();
      await request(t, "b", "plan-1", "plan_approval", ["c"]);
      await refused("E_FORBIDDEN", () => respond(t, "h", "plan-1", "plan_approval", "approve"), { unmoved: t });
    });

    it("refuses a shutdown or plan_approval response without a verdict (E_SCHEMA)", async () => {
      const t = await table();
      await request(t, "b", "plan-1", "plan_approval", ["c"]);
      await refused("E_SCHEMA", () => respond(t, "c", "plan-1", "plan_approval"), { unmoved: t });
    });
  });

  describe("when the request itself is wrong", () => {
    it("refuses a request id used before (E_NOT_ALLOWED)", async () => {
      const t = await table();
      await request(t, "b", "r-1", "question");
      await refused("E_NOT_ALLOWED", () => request(t, "c", "r-1", "question"), { unmoved: t });
    });

    it("refuses a shutdown that does not name exactly one seat (E_NOT_ALLOWED)", async () => {
      const t = await table();
      await refused("E_NOT_ALLOWED", () => request(t, "a", "s-1", "shutdown"), { unmoved: t });
      await refused("E_NOT_ALLOWED", () => request(t, "a", "s-1", "shutdown", ["b", "c"]), { unmoved: t });
    });

    it("refuses addressing a seat that is not at the table (E_UNKNOWN_SEAT)", async () => {
      const t = await table();
      await refused("E_UNKNOWN_SEAT", () => request(t, "a", "s-1", "shutdown", ["ghost"]), { unmoved: t });
    });
  });
});

describe("a shutdown", () => {
  it("approved by its seat makes that seat leave, and the rotation skips it", async () => {
    const t = await table();
    await request(t, "h", "bye-b", "shutdown", ["b"]);
    const left = await respond(t, "b", "bye-b", "shutdown", "approve");
    expect(left.map(kindOf)).toEqual(["response", "seat_left"]);
    expect(left[1]).toMatchObject({ author: null, data: { seat: "b", reason: "shutdown" } });
    const turn = await t.say("a");
    expect(moves(turn)).toEqual([{ floor: { holder: "c", round: 1, reason: "turn" } }]);
    await refused("E_UNKNOWN_SEAT", () => t.say("b"), { unmoved: t });
  });

  it("approved by the floor holder moves the floor on at once", async () => {
    const t = await table();
    await request(t, "h", "bye-a", "shutdown", ["a"]);
    const left = await respond(t, "a", "bye-a", "shutdown", "approve");
    expect(left.map(kindOf)).toEqual(["response", "seat_left", "floor"]);
    expect(t.holder).toBe("b");
  });

  it("rejected leaves the seat where it is", async () => {
    const t = await table();
    await request(t, "h", "bye-b", "shutdown", ["b"]);
    expect((await respond(t, "b", "bye-b", "shutdown", "reject")).map(kindOf)).toEqual(["response"]);
    expect(t.state.seats.b!.left).toBeNull();
  });

  it("folds to the same state and replays CLEAN", async () => {
    const t = await table();
    await request(t, "h", "bye-a", "shutdown", ["a"]);
    await respond(t, "a", "bye-a", "shutdown", "approve");
    await request(t, "b", "plan-1", "plan_approval", ["c"]);
    await respond(t, "c", "plan-1", "plan_approval", "approve");
    expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
    expect((await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });
});
