import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyExport } from "../../src/protocol/index.js";
import { RelayHttp } from "../support/relay-http.js";
import { cast, debateConfig } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

describe("a debate table over HTTP", () => {
  it("runs create -> join (2 owners, 3 seats) -> debate to a decision -> closed", async () => {
    const k = await cast();
    const id = "debate-flow-1";
    const config = debateConfig(k, { id });
    const created = await relay.create(k.ops, "ops", config);
    expect(created.status).toBe(201);
    expect(created.body.head.seq).toBe(1);
    const wk = await relay.request("GET", "/.well-known/trestle.json");
    expect(created.body.head.relay).toBe(wk.body.relay_key);

    expect((await relay.join(id, k.tao, "tao", "bot-tao", k.botTao)).status).toBe(201);
    expect((await relay.join(id, k.jenny, "jenny", "bot-jenny", k.botJenny)).status).toBe(201);
    expect((await relay.join(id, k.ops, "ops", "judge", k.judge)).status).toBe(201);

    for (let r = 1; r <= 2; r++) {
      expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: `pro round ${r}` })).status).toBe(
        201,
      );
      expect((await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: `con round ${r}` })).status).toBe(
        201,
      );
    }
    const decided = await relay.say(id, k.judge, { seat: "judge", kind: "decision", body: "ship #459 first" });
    expect(decided.status).toBe(201);

    const after = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "one more" });
    expect(after).toMatchObject({ status: 409, body: { error: { code: "E_CLOSED" } } });

    const exported = await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" });
    expect(exported.status).toBe(200);
    const text = exported.body as string;
    const report = await verifyExport(text, { relayKey: wk.body.relay_key });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage).toMatchObject({ entries: 15, by_content: 15, policy_replay: "full", head_seq: 15 });

    // One altered byte: "ship" -> "shiq" inside the judge's decision.
    const at = text.indexOf("ship #459 first") + 3;
    const altered = text.slice(0, at) + "q" + text.slice(at + 1);
    const refuted = await verifyExport(altered, { relayKey: wk.body.relay_key });
    expect(refuted.verdict).toBe("REFUTED");
    expect(refuted.refuted).toMatchObject({ seq: 14, reason: expect.stringContaining("leaf") });
  });
});
