import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalize, LIMITS, signHttpAuth, signSubmission, toBase64url, utf8 } from "../../src/protocol/index.js";
import { RelayHttp, tableHead } from "../support/relay-http.js";
import { refused } from "../support/refused.js";
import { seatedDebate } from "../support/seated.js";
import { keyOf, nonceOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const id = "inbound-json";
let k: Cast;

beforeAll(async () => {
  k = await seatedDebate(relay, id);
});

/** bot-tao's signed say (it holds the floor), as JSON text. */
async function sayText(fields: Record<string, unknown> = {}): Promise<string> {
  const request = await signSubmission(k.botTao, {
    table: id,
    seat: "bot-tao",
    nonce: nonceOf(`inbound:${Math.random()}`),
    kind: "say",
    body: "b",
    ...fields,
  } as never);
  return JSON.stringify(request);
}

const post = (path: string, text: string) => relay.request("POST", path, text);

describe("when a request body holds a key twice", () => {
  it("refuses a signed say whose body key repeats, though its signature covers the last value (which a last-wins parser would keep)", async () => {
    const text = (await sayText({ body: "b" })).replace('"body":"b"', '"body":"a","body":"b"');
    const reply = await refused("E_NOT_CANONICAL", () => post(`/tables/${id}/entries`, text), {
      status: 400,
      unmoved: tableHead(relay, id),
    });
    expect(reply.body.error.message).toContain('duplicate key "body"');
    expect(reply.body.error.details).toEqual({ path: "$.submission.body" });
  });

  it.each([
    "/tables",
    "/tables/:id/join",
    "/tables/:id/entries",
    "/tables/:id/control",
    "/tables/:id/subtables",
    "/tables/:id/approvals",
  ])("refuses it on POST %s with E_NOT_CANONICAL", async (route) => {
    await refused("E_NOT_CANONICAL", () => post(route.replace(":id", id), '{"sig":"x","sig":"y"}'), {
      status: 400,
      unmoved: tableHead(relay, id),
    });
  });

  it("refuses it on POST /owners/:key/bind-codes with E_NOT_CANONICAL", async () => {
    const reply = await post(`/owners/${k.jenny.publicKeyText}/bind-codes`, '{"statement":{},"statement":{}}');
    expect(reply).toMatchObject({ status: 400, body: { error: { code: "E_NOT_CANONICAL" } } });
  });
});

describe("when a number in a body is not a safe integer literal", () => {
  it("refuses a seq past 2^53 with E_NOT_CANONICAL, not E_TOO_LARGE", async () => {
    const text = (await sayText({ re: 1 })).replace('"re":1', '"re":9007199254740993');
    await refused("E_NOT_CANONICAL", () => post(`/tables/${id}/entries`, text), {
      status: 400,
      unmoved: tableHead(relay, id),
    });
  });

  it("refuses a fraction in a budget, in effect args and in a known head with E_NOT_CANONICAL, not E_SCHEMA", async () => {
    const budget = (await sayText({ budget: { tokens: 7 } })).replace('"tokens":7', '"tokens":1.5');
    const args = (
      await sayText({
        kind: "proposal",
        effects: [{ owner: "tao", resource: "repo:x", action: "merge", args: { pr: 7 } }],
      })
    ).replace('"pr":7', '"pr":7.5');
    const head = JSON.stringify({
      ...JSON.parse(await sayText()),
      known_head: { seq: 1.0, link: "ab".repeat(32) },
    }).replace('"seq":1,', '"seq":1.0,');
    for (const text of [budget, args, head])
      await refused("E_NOT_CANONICAL", () => post(`/tables/${id}/entries`, text), {
        status: 400,
        unmoved: tableHead(relay, id),
      });
  });

  it("refuses an exponent in a join's expiry with E_NOT_CANONICAL", async () => {
    await refused(
      "E_NOT_CANONICAL",
      () => post(`/tables/${id}/join`, '{"join":{"expires":1e13},"card":{},"sig":"x"}'),
      { status: 400, unmoved: tableHead(relay, id) },
    );
  });
});

describe("when a string escapes a lone surrogate", () => {
  it("refuses it with E_NOT_CANONICAL (its UTF-8 would not be the text the seat hashed)", async () => {
    const text = (await sayText({ body: "b" })).replace('"body":"b"', '"body":"\\ud800"');
    await refused("E_NOT_CANONICAL", () => post(`/tables/${id}/entries`, text), {
      status: 400,
      unmoved: tableHead(relay, id),
    });
  });
});

describe("when a published size limit is exceeded", () => {
  it("refuses a body over LIMITS.request_bytes with 413 E_TOO_LARGE", async () => {
    await refused(
      "E_TOO_LARGE",
      () => post(`/tables/${id}/entries`, JSON.stringify({ pad: "x".repeat(LIMITS.request_bytes) })),
      { status: 413, unmoved: tableHead(relay, id) },
    );
  });

  it("refuses effect args over their canonical byte limit with 413 E_TOO_LARGE", async () => {
    const small = await sayText({
      kind: "proposal",
      effects: [{ owner: "tao", resource: "repo:x", action: "merge", args: { pad: "x" } }],
    });
    const text = small.replace('"pad":"x"', `"pad":"${"x".repeat(LIMITS.effect_args_bytes)}"`);
    const reply = await refused("E_TOO_LARGE", () => post(`/tables/${id}/entries`, text), {
      status: 413,
      unmoved: tableHead(relay, id),
    });
    expect(reply.body.error.message).toContain("submission.effects[0].args");
  });

  it("refuses a capability card over its canonical byte limit with 413 E_TOO_LARGE", async () => {
    // 32 skills of 64 CJK characters fit the field limits but are 6 KB of UTF-8.
    const card = { skills: Array.from({ length: 32 }, () => "表".repeat(64)) };
    const seat = await keyOf("seat:inbound-card");
    await refused("E_TOO_LARGE", () => relay.join(id, k.tao, "tao", "card-seat", seat, { card }), {
      status: 413,
      unmoved: tableHead(relay, id),
    });
  });
});

describe("the read authorization header", () => {
  const entries = `/tables/${id}/entries?from=1&to=1`;
  const token = (payload: string) => `Trestle ${toBase64url(utf8(payload))}`;

  it("accepts the scheme in any case and more than one space before the token (RFC 9110 §11.1)", async () => {
    const header = await signHttpAuth(k.botTao, {
      table: id,
      as: { seat: "bot-tao" },
      method: "GET",
      path: entries,
      now: Date.now(),
    });
    for (const authorization of [
      header,
      header.replace("Trestle ", "trestle "),
      header.replace("Trestle ", "TRESTLE   "),
    ]) {
      expect((await relay.request("GET", entries, undefined, { authorization })).status).toBe(200);
    }
  });

  describe("when its payload is not inbound JSON", () => {
    it("refuses a payload with a repeated key with E_AUTH naming it, though the signature covers the last value", async () => {
      const header = await signHttpAuth(k.botTao, {
        table: id,
        as: { seat: "bot-tao" },
        method: "GET",
        path: entries,
        now: Date.now(),
      });
      const payload = new TextDecoder().decode(
        Uint8Array.from(atob(header.slice(8).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
      );
      const doubled = payload.replace('"method":"GET"', '"method":"POST","method":"GET"');
      const reply = await relay.request("GET", entries, undefined, { authorization: token(doubled) });
      expect(reply).toMatchObject({
        status: 401,
        body: { error: { code: "E_AUTH", message: expect.stringContaining("duplicate key") } },
      });
    });

    it("refuses a token that is not base64url, and a payload that is not the statement, with E_AUTH saying which", async () => {
      const padded = await relay.request("GET", entries, undefined, { authorization: "Trestle eyJ9==" });
      expect(padded).toMatchObject({
        status: 401,
        body: { error: { code: "E_AUTH", message: expect.stringContaining("Trestle <token>") } },
      });
      const wrong = await relay.request("GET", entries, undefined, {
        authorization: token(canonicalize({ scope: "http", table: id })),
      });
      expect(wrong).toMatchObject({
        status: 401,
        body: { error: { code: "E_AUTH", message: expect.stringContaining("signed read statement") } },
      });
    });
  });
});
