import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyExport } from "../../src/protocol/index.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { nonceOf } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

describe("the floor over HTTP", () => {
  it("refuses a say from a seat without the floor with E_NOT_FLOOR naming the holder", async () => {
    const id = "floor-not-floor";
    const k = await seatedDebate(relay, id);
    const reply = await headUnmoved(relay, id, () =>
      relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "me first" }),
    );
    expect(reply).toMatchObject({
      status: 409,
      body: { error: { code: "E_NOT_FLOOR", details: { holder: "bot-tao" } } },
    });
  });

  it("truncates a body over max_chars and marks the entry truncated", async () => {
    const id = "floor-truncation";
    const k = await seatedDebate(relay, id, { floor: { max_chars: 10 } });
    const reply = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "0123456789abcdef" });
    expect(reply).toMatchObject({ status: 201, body: { truncated: true } });
    const page = await relay.read(id, `/tables/${id}/entries?from=${reply.body.seq}&to=${reply.body.seq}`, k.botTao, {
      seat: "bot-tao",
    });
    expect(page.body.items[0]).toMatchObject({ body: "0123456789", truncated: { chars: 16 } });

    // The export carries the original, so the cut is checked against what the seat signed.
    const exported = await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" });
    const report = await verifyExport(exported.body, { relayKey: reply.body.head.relay });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { truncated_checked: 1, truncated_unchecked: 0 } });
  });

  it("answers a retried submission with the same seq and appends nothing", async () => {
    const id = "floor-idempotent";
    const k = await seatedDebate(relay, id);
    const nonce = nonceOf("retry-me");
    const first = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "once", nonce });
    const again = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "once", nonce });
    expect(again.status).toBe(201);
    expect(again.body.seq).toBe(first.body.seq);
    expect(again.body.head.seq).toBe(first.body.head.seq);
    const other = await headUnmoved(relay, id, () =>
      relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "twice", nonce }),
    );
    expect(other).toMatchObject({ status: 409, body: { error: { code: "E_NONCE_REUSED" } } });
  });

  it("answers a retry of the write that closed the table with its first seq, not E_CLOSED", async () => {
    const id = "floor-idempotent-closed";
    const k = await seatedDebate(relay, id, { floor: { decision_by: "any" } });
    const nonce = nonceOf("closing");
    const first = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "decision", body: "ship #459 first", nonce });
    expect(first.status).toBe(201);
    const again = await headUnmoved(relay, id, () =>
      relay.say(id, k.botTao, { seat: "bot-tao", kind: "decision", body: "ship #459 first", nonce }),
    );
    expect(again).toMatchObject({ status: 201, body: { seq: first.body.seq } });
    const late = await headUnmoved(relay, id, () =>
      relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "one more", nonce: nonceOf("late") }),
    );
    expect(late).toMatchObject({ status: 409, body: { error: { code: "E_CLOSED" } } });
  });
});
