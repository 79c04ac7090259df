/** Which owners a table notifies about a batch (docs/SPEC.md §11.3). */
import { describe, expect, it } from "vitest";
import { notificationsFor, NotificationSchema, SEALED_PREFIX, stalledDraft } from "../../../src/protocol/index.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { cast } from "../../support/table-fixture.js";
import { openConfig, TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, gatewayConfig, gatewayTable, propose } from "./gateway-fixtures.js";

describe("notificationsFor", () => {
  it("tells every owner of the opening, a decision and the closing, with deterministic ids", async () => {
    const k = await cast();
    const t = await TestTable.open(openConfig(k, { termination: { any: ["decision"] } }), ["x", "y"], k);
    const opened = notificationsFor(t.state, t.l.entries.slice(0, 1));
    expect([...opened.keys()].sort()).toEqual([k.tao, k.jenny, k.ops].map((s) => s.publicKeyText).sort());
    const added = await t.write("x", { kind: "decision", body: "x".repeat(1500) });
    const events = notificationsFor(t.state, added).get(k.jenny.publicKeyText)!;
    expect(events.map((e) => [e.type, e.id])).toEqual([
      ["decision_reached", `t-room:${added[0]!.seq}:decision_reached`],
      ["table_closed", `t-room:${added[1]!.seq}:table_closed`],
    ]);
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

describe("notificationsFor a room that closes with a deal", () => {
  it("tells every owner what the deal binds: the accepted offer's entry, author, terms and expiry", async () => {
    const r = await RoomLedger.open();
    const expires = r.l.now + 3_600_000;
    const leaf = await r.offer("sara-bot", twd(280000, "stroller, folds flat"), { expires });
    await r.write("ben-bot", { kind: "accept", offer: leaf });
    const added = await r.write("sara-bot", { kind: "close", outcome: "deal", offer: leaf });
    const seq = r.state.room!.offers[leaf]!.seq;
    for (const owner of [r.k.sara, r.k.ben]) {
      const closed = notificationsFor(r.state, added)
        .get(owner.publicKeyText)!
        .find((e) => e.type === "table_closed")!;
      expect(closed).toMatchObject({
        type: "table_closed",
        reason: "deal",
        deal: { offer: { seq, seat: "sara-bot", terms: twd(280000, "stroller, folds flat"), expires } },
      });
      expect(NotificationSchema.parse(closed)).toEqual(closed);
    }
  });

  it("says nothing of a deal when the room closes without one", async () => {
    const r = await RoomLedger.open();
    const added = await r.write("ben-bot", { kind: "close", outcome: "no_deal" });
    expect(notificationsFor(r.state, added).get(r.k.ben.publicKeyText)![0]).not.toHaveProperty("deal");
  });
});

describe("notificationsFor an end-to-end encrypted room", () => {
  it("carries no content: no topic and no decision body, marked e2e", async () => {
    const r = await RoomLedger.open({ config: { room: { e2e: true }, topic: "Secret stroller deal" } });
    const added = await r.write("sara-bot", { kind: "decision", body: `${SEALED_PREFIX}${"A".repeat(40)}` });
    const events = notificationsFor(r.state, added).get(r.k.ben.publicKeyText)!;
    expect(events.map((e) => e.type)).toEqual(["decision_reached", "table_closed"]);
    for (const event of events) {
      expect(event).toMatchObject({ topic: "", e2e: true });
      expect(NotificationSchema.parse(event)).toEqual(event);
    }
    expect(events[0]).toMatchObject({ body: "" });
  });

  it("says nothing of what a deal binds", async () => {
    const r = await RoomLedger.open({ config: { room: { e2e: true } } });
    const leaf = await r.offer("sara-bot", twd(280000));
    await r.write("ben-bot", { kind: "accept", offer: leaf });
    const added = await r.write("sara-bot", { kind: "close", outcome: "deal", offer: leaf });
    const closed = notificationsFor(r.state, added)
      .get(r.k.ben.publicKeyText)!
      .find((e) => e.type === "table_closed")!;
    expect(closed).toMatchObject({ type: "table_closed", reason: "deal", e2e: true });
    expect(closed).not.toHaveProperty("deal");
  });
});

describe("notificationsFor the commit gateway", () => {
  it("asks only the affected owner to approve a waiting task, with the effects spelled out", async () => {
    const k = await cast();
    const t = await gatewayTable(k);
    const added = await t.write("x", { kind: "proposal", body: "card", effects: [CARD_EFFECT] });
    const map = notificationsFor(t.state, added);
    expect([...map.keys()]).toEqual([k.jenny.publicKeyText]);
    expect(map.get(k.jenny.publicKeyText)).toEqual([
      {
        type: "approval_needed",
        id: `t-gateway:${added[1]!.seq}:approval_needed`,
        table: "t-gateway",
        topic: t.config.topic,
        task: `${added[0]!.seq}.jenny`,
        proposal_seq: added[0]!.seq,
        proposer: "x",
        effects: [CARD_EFFECT],
        chat_approve: false,
      },
    ]);
    expect(NotificationSchema.safeParse(map.get(k.jenny.publicKeyText)![0]).success).toBe(true);
  });

  it("says nothing for a task its owner's rules approved at once", async () => {
    const k = await cast();
    const config = gatewayConfig(k);
    config.owners.ops = { ...config.owners.ops!, auto_approve: [{ resource: "*", action: "*" }] };
    const t = await TestTable.open(config, undefined, k);
    const added = await t.write("x", {
      kind: "proposal",
      body: "restart",
      effects: [{ owner: "ops", resource: "deploy", action: "restart", args: {} }],
    });
    expect(notificationsFor(t.state, added).size).toBe(0);
  });

  it("tells the owner when the watchdog stalls their task", async () => {
    const k = await cast();
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    const [, moved] = await approve(t, seq, "jenny");
    t.l.now = moved!.ts + 60_000;
    const stalled = t.l.append(stalledDraft(t.state, `${seq}.jenny`));
    const map = notificationsFor(t.state, stalled);
    expect(map.get(k.jenny.publicKeyText)).toEqual([
      {
        type: "task_stalled",
        id: `t-gateway:${stalled[0]!.seq}:task_stalled`,
        table: "t-gateway",
        topic: t.config.topic,
        task: `${seq}.jenny`,
      },
    ]);
    expect(map.size).toBe(1);
  });
});
