/** Which owners a table notifies about a batch (docs/SPEC.md §11.3). */
import { describe, expect, it } from "vitest";
import { notificationsFor } from "../../../src/protocol/index.js";
import { cast } from "../../support/table-fixture.js";
import { openConfig, TestTable } from "./fixtures.js";

describe("notificationsFor", () => {
  it("tells every owner of the opening, a decision and the closing, with deterministic ids", async () => {
    const k = await cast();
    const t = await TestTable.open(openConfig(k, { termination: { any: ["decision"] } }), ["x", "y"], k);
    const opened = notificationsFor(t.state, t.l.entries.slice(0, 1));
    expect([...opened.keys()].sort()).toEqual([k.tao, k.jenny, k.ops].map((s) => s.publicKeyText).sort());
    const added = await t.write("x", { kind: "decision", body: "x".repeat(1500) });
    const events = notificationsFor(t.state, added).get(k.jenny.publicKeyText)!;
    expect(events.map((e) => [e.type, e.id])).toEqual([["decision_reached", `t-room:${added[0]!.seq}:decision_reached`], ["table_closed", `t-room:${added[1]!.seq}:table_closed`]]);
    expect(events[0]).toMatchObject({ body: "x".repeat(1000), seat: "x" });
  });

  it("tells only the human seat's owner that the floor is theirs", async () => {
    const k = await cast();
    const t = await TestTable.open(openConfig(k, { floor: { max_bot_depth: 1 } }), ["x", "h"], k);
    const added = await t.say("x");
    const map = notificationsFor(t.state, added);
    expect([...map.keys()]).toEqual([k.tao.publicKeyText]);
    expect(map.get(k.tao.publicKeyText)).toMatchObject([{ type: "floor_to_human", seat: "h" }]);
  });

  it("says nothing about ordinary turns", async () => {
    const k = await cast();
    const t = await TestTable.open(openConfig(k), ["x", "y"], k);
    expect(notificationsFor(t.state, await t.say("y")).size).toBe(0);
  });
});
