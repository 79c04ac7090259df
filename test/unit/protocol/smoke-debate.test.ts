import { describe, expect, it } from "vitest";
import { exportText, verifyExport } from "../../../src/protocol/index.js";
import { cast, debateConfig, MemoryLedger } from "../../support/table-fixture.js";

describe("debate smoke", () => {
  it("runs to a decision and verifies CLEAN", async () => {
    const k = await cast();
    const l = new MemoryLedger(k.relay);
    await l.create(k.ops, "ops", debateConfig(k));
    await l.join(k.tao, "tao", "bot-tao", k.botTao);
    await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
    const started = await l.join(k.ops, "ops", "judge", k.judge);
    expect(started.map((e) => e.kind === "system" && e.subkind)).toEqual(["seat_joined", "floor"]);
    for (let r = 0; r < 2; r++) {
      await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: `pro ${r}` });
      await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: `con ${r}` });
    }
    const end = await l.submit(k.judge, { seat: "judge", kind: "decision", body: "ship #459 first" });
    expect(end.map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual(["decision", "table_closed"]);
    const text = exportText({ table: "t-459", relay: k.relay.publicKeyText }, l.entries, [await l.head()]);
    const report = await verifyExport(text, { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN" });
    console.log(text.split("\n").length, report);
  });
});
