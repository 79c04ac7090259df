import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS, signCreate, signHttpAuth, signJoin, signSubmission } from "../../src/protocol/index.js";
import { RelayHttp, tableHead } from "../support/relay-http.js";
import { refused } from "../support/refused.js";
import { seatedDebate } from "../support/seated.js";
import { debateConfig, keyOf, nonceOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const id = "bad-input";
let k: Cast;

beforeAll(async () => {
  k = await seatedDebate(relay, id);
});

const say = (overrides: Record<string, unknown> = {}) =>
  signSubmission(k.botTao, {
    table: id,
    seat: "bot-tao",
    nonce: nonceOf(`bad:${Math.random()}`),
    kind: "say",
    body: "hi",
    ...overrides,
  } as never);

describe("when a request body is malformed", () => {
  it("refuses a body without Content-Type: application/json", () =>
    refused(
      "E_SCHEMA",
      async () => {
        const res = await SELF.fetch(`https://relay.test/tables/${id}/entries`, {
          method: "POST",
          body: JSON.stringify(await say()),
        });
        return { status: res.status, body: await res.json() };
      },
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses invalid JSON", () =>
    refused("E_SCHEMA", () => relay.request("POST", `/tables/${id}/entries`, "{not json"), {
      unmoved: tableHead(relay, id),
    }));
  it("refuses a body over the size limit", () =>
    refused(
      "E_TOO_LARGE",
      () => relay.request("POST", `/tables/${id}/entries`, JSON.stringify({ pad: "x".repeat(300_000) })),
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses wrong types, naming the path", async () => {
    const request = await say();
    await refused(
      "E_SCHEMA",
      async () => {
        const reply = await relay.request("POST", `/tables/${id}/entries`, {
          ...request,
          submission: { ...request.submission, body: 5 },
        });
        expect(reply.body.error.message).toContain("submission.body");
        return reply;
      },
      { unmoved: tableHead(relay, id) },
    );
  });
  it("refuses an unknown field", async () => {
    const request = await say();
    await refused("E_SCHEMA", () => relay.request("POST", `/tables/${id}/entries`, { ...request, extra: 1 }), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses an entry body longer than the published limit", async () => {
    const request = await say();
    const oversized = { ...request, submission: { ...request.submission, body: "y".repeat(40_000) } };
    await refused("E_TOO_LARGE", () => relay.request("POST", `/tables/${id}/entries`, oversized), {
      unmoved: tableHead(relay, id),
    });
  });
});

describe("when JSON is nested deeper than the published limit", () => {
  const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  const bodies: [string, string][] = [
    ["a deep array", deepArray(100_000)],
    ["a deep object", deepObject(40_000)],
    ["one level over the limit", deepArray(LIMITS.json_depth + 1)],
  ];

  it.each([
    "/tables",
    "/tables/:id/join",
    "/tables/:id/entries",
    "/tables/:id/control",
    "/tables/:id/subtables",
    "/tables/:id/approvals",
  ])("refuses it on POST %s with E_SCHEMA, never a 500", async (route) => {
    for (const [, body] of bodies)
      await refused("E_SCHEMA", () => relay.request("POST", route.replace(":id", id), body), {
        unmoved: tableHead(relay, id),
      });
  });

  it("refuses a signed proposal whose effect args nest too deeply with E_SCHEMA", async () => {
    const request = await say({
      kind: "proposal",
      effects: [{ owner: "tao", resource: "repo:x", action: "merge", args: { pr: 1 } }],
    });
    const text = JSON.stringify(request).replace('{"pr":1}', deepObject(30_000));
    await refused("E_SCHEMA", () => relay.request("POST", `/tables/${id}/entries`, text), {
      unmoved: tableHead(relay, id),
    });
  });

  it("refuses it on POST /owners/:key/bind-codes with E_SCHEMA", async () => {
    const reply = await relay.request("POST", `/owners/${k.jenny.publicKeyText}/bind-codes`, deepArray(100_000));
    expect(reply).toMatchObject({ status: 400, body: { error: { code: "E_SCHEMA" } } });
  });

  it("accepts JSON exactly at the limit (the depth check refuses nothing legitimate)", async () => {
    let args: Record<string, unknown> = { leaf: true };
    // The body, submission, effects, the effect and args take 5 levels; each wrapper adds one.
    for (let depth = 5; depth < LIMITS.json_depth; depth++) args = { a: args };
    const request = await say({
      kind: "proposal",
      effects: [{ owner: "tao", resource: "repo:x", action: "merge", args }],
    });
    const reply = await relay.request("POST", `/tables/${id}/entries`, request);
    expect(reply.status).toBeLessThan(500);
    expect(reply.body.error?.code).not.toBe("E_SCHEMA");
  });
});

describe("when a signature or statement is wrong", () => {
  it("refuses a submission with a bad signature", async () => {
    const request = await say();
    const other = await say();
    await refused(
      "E_BAD_SIGNATURE",
      () => relay.request("POST", `/tables/${id}/entries`, { ...request, sig: other.sig }),
      { unmoved: tableHead(relay, id) },
    );
  });
  it("refuses a submission signed for another table", async () => {
    const request = await signSubmission(k.botTao, {
      table: "other-table",
      seat: "bot-tao",
      nonce: nonceOf("wt"),
      kind: "say",
      body: "hi",
    });
    await refused("E_WRONG_TABLE", () => relay.request("POST", `/tables/${id}/entries`, request), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a submission from an unknown seat", async () => {
    const stranger = await keyOf("seat:stranger");
    const request = await signSubmission(stranger, {
      table: id,
      seat: "stranger",
      nonce: nonceOf("st"),
      kind: "say",
      body: "hi",
    });
    await refused("E_UNKNOWN_SEAT", () => relay.request("POST", `/tables/${id}/entries`, request), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a seat's submission signed with another seat's key", async () => {
    const request = await signSubmission(k.botJenny, {
      table: id,
      seat: "bot-tao",
      nonce: nonceOf("ok"),
      kind: "say",
      body: "hi",
    });
    await refused("E_BAD_SIGNATURE", () => relay.request("POST", `/tables/${id}/entries`, request), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a write whose known head is not on the chain", async () => {
    const request = await signSubmission(
      k.botTao,
      { table: id, seat: "bot-tao", nonce: nonceOf("fork"), kind: "say", body: "hi" },
      { seq: 2, link: "ab".repeat(32) },
    );
    await refused("E_FORK", () => relay.request("POST", `/tables/${id}/entries`, request), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a replayed join nonce carrying a different statement", async () => {
    const extra = await keyOf("seat:extra");
    const join = await signJoin(
      k.tao,
      {
        table: id,
        seat: "bot-tao",
        owner: "tao",
        seat_key: extra.publicKeyText,
        human: false,
        nonce: nonceOf(`join:${id}:bot-tao-replay`),
        expires: Date.now() + 60_000,
      },
      {},
    );
    await refused("E_SEAT_TAKEN", () => relay.request("POST", `/tables/${id}/join`, join), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a join signed for another table", () =>
    refused(
      "E_WRONG_TABLE",
      async () => {
        const extra = await keyOf("seat:extra2");
        const join = await signJoin(
          k.tao,
          {
            table: "elsewhere",
            seat: "x",
            owner: "tao",
            seat_key: extra.publicKeyText,
            human: false,
            nonce: nonceOf("wtj"),
            expires: Date.now() + 60_000,
          },
          {},
        );
        return relay.request("POST", `/tables/${id}/join`, join);
      },
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses an expired join", () =>
    refused(
      "E_EXPIRED",
      async () => {
        const extra = await keyOf("seat:late");
        return relay.join(id, k.tao, "tao", "late", extra, { expires: Date.now() - 1 });
      },
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses a join signed by someone who is not an owner", () =>
    refused(
      "E_NOT_OWNER",
      async () => {
        const mallory = await keyOf("owner:mallory");
        const seat = await keyOf("seat:m");
        return relay.join(id, mallory, "mallory", "m", seat);
      },
      { unmoved: tableHead(relay, id) },
    ));
});

describe("when creating a table goes wrong", () => {
  it("refuses a config without termination", async () => {
    const { termination: _t, ...config } = debateConfig(k, { id: "no-termination" });
    const reply = await relay.request("POST", "/tables", {
      config,
      owner: "ops",
      sig: (await signCreate(k.ops, debateConfig(k), "ops")).sig,
    });
    expect(reply).toMatchObject({ status: 400, body: { error: { code: "E_NO_TERMINATION" } } });
  });
  it("refuses a malformed config naming the path", async () => {
    const config = { ...debateConfig(k, { id: "bad-config" }), topic: 7 };
    const reply = await relay.request("POST", "/tables", {
      config,
      owner: "ops",
      sig: (await signCreate(k.ops, debateConfig(k), "ops")).sig,
    });
    expect(reply).toMatchObject({ status: 400, body: { error: { code: "E_SCHEMA" } } });
    expect(reply.body.error.message).toContain("topic");
  });
  it("refuses a config whose id is not a table id with E_SCHEMA naming the path", async () => {
    const config = debateConfig(k, { id: "Not An Id" });
    const reply = await relay.request("POST", "/tables", await signCreate(k.ops, config, "ops"));
    expect(reply).toMatchObject({ status: 400, body: { error: { code: "E_SCHEMA" } } });
    expect(reply.body.error.message).toContain("config at id");
  });
  it("refuses a different config for an existing id, but repeats an identical create", async () => {
    const again = await relay.create(k.ops, "ops", debateConfig(k, { id }));
    expect(again.status).toBe(201);
    await refused("E_TABLE_EXISTS", () => relay.create(k.ops, "ops", debateConfig(k, { id, topic: "another topic" })), {
      unmoved: tableHead(relay, id),
    });
  });
  it("refuses a create signed by a key that is not the named owner's", async () => {
    const reply = await relay.create(k.tao, "ops", debateConfig(k, { id: "wrong-creator" }));
    expect(reply).toMatchObject({ status: 401, body: { error: { code: "E_BAD_SIGNATURE" } } });
  });
});

describe("when a read is not authorized", () => {
  it("refuses a projection without Authorization", () =>
    refused("E_AUTH", () => relay.request("GET", `/tables/${id}/projection`), { unmoved: tableHead(relay, id) }));
  it("refuses an authorization signed for another path", () =>
    refused(
      "E_AUTH",
      async () => {
        const authorization = await signHttpAuth(k.botTao, {
          table: id,
          as: { seat: "bot-tao" },
          method: "GET",
          path: `/tables/${id}/export`,
          now: Date.now(),
        });
        return relay.request("GET", `/tables/${id}/projection`, undefined, { authorization });
      },
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses a stale authorization", () =>
    refused(
      "E_AUTH",
      async () => {
        const path = `/tables/${id}/projection`;
        const authorization = await signHttpAuth(k.botTao, {
          table: id,
          as: { seat: "bot-tao" },
          method: "GET",
          path,
          now: Date.now() - 3_600_000,
        });
        return relay.request("GET", path, undefined, { authorization });
      },
      { unmoved: tableHead(relay, id) },
    ));
  it("refuses a projection read as an owner", () =>
    refused("E_FORBIDDEN", () => relay.read(id, `/tables/${id}/projection`, k.ops, { owner: "ops" }), {
      unmoved: tableHead(relay, id),
    }));
  it("refuses a bad query parameter", () =>
    refused("E_SCHEMA", () => relay.read(id, `/tables/${id}/projection?after=-1`, k.botTao, { seat: "bot-tao" }), {
      unmoved: tableHead(relay, id),
    }));
});

describe("when the route or table does not exist", () => {
  it("answers an unknown route with E_NOT_FOUND", async () => {
    expect(await relay.request("GET", "/nope")).toMatchObject({
      status: 404,
      body: { error: { code: "E_NOT_FOUND" } },
    });
  });
  it("answers an unknown table with E_TABLE_NOT_FOUND", async () => {
    expect(await relay.request("GET", "/tables/never-created/head")).toMatchObject({
      status: 404,
      body: { error: { code: "E_TABLE_NOT_FOUND" } },
    });
    expect(await relay.request("GET", "/tables/NOT_AN_ID!/head")).toMatchObject({
      status: 404,
      body: { error: { code: "E_TABLE_NOT_FOUND" } },
    });
  });
});
