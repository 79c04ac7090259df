/**
 * A seat and its own owner (docs/SPEC.md §5.14): a question is taken only when the owner can
 * answer now, read only by the seat and its owner, answered once before its deadline by that owner
 * (signed: verified) or from its bound chat (relay-attested: unverified); an instruction reaches
 * only its seat. None of it is an entry (the head does not move), and all of it survives eviction.
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  signAnswer,
  signHttpAuth,
  signInstruction,
  signQuestion,
  type Principal,
  type Signer,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { bindVia, drain, requests } from "../support/chat-driver.js";
import { ownerSession } from "../support/gateway.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "owner-ask";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
let unique = 0;
const fresh = (label: string) => nonceOf(`${label}:${(unique += 1)}:${Math.random()}`);

/** POST /tables/:id/questions: `seat` asks its owner. */
async function ask(
  room: RoomHttp,
  seat: string,
  fields: { text?: string; choices?: string[]; deadline?: number; question?: string } = {},
) {
  const now = Date.now();
  const request = await signQuestion(await room.seatKey(seat), {
    table: room.id,
    seat,
    question: fields.question ?? fresh("q"),
    text: fields.text ?? "Seller holds at 2,800. Accept?",
    ...(fields.choices ? { choices: fields.choices } : {}),
    deadline: fields.deadline ?? now + 60_000,
    ts: now,
  });
  return { request, reply: await relay.request("POST", `/tables/${room.id}/questions`, request) };
}

/** POST /tables/:id/questions/:q/answer signed by `signer` as `owner` for `seat`. */
async function answer(room: RoomHttp, question: string, value: string, signer: Signer, owner: string, seat: string) {
  const request = await signAnswer(signer, { table: room.id, owner, seat, question, value, ts: Date.now() });
  return relay.request("POST", `/tables/${room.id}/questions/${question}/answer`, request);
}

const stub = (id: string) => env.TABLES.getByName(id);

describe("a seat's question to its owner", () => {
  it("is answered once by its owner's key, read only by the seat and its owner, and kept across an eviction", async () => {
    const room = await RoomHttp.open(relay, "owner-ask-signed", { cast: CAST });
    await room.admit(room.k.ben, "ben", "ben-bot");
    const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
    const { request, reply } = await headUnmoved(relay, room.id, () =>
      ask(room, "sara-bot", { choices: ["accept", "hold"] }),
    );
    expect(reply.status).toBe(201);
    const id = request.question.question;
    const listed = await relay.read(room.id, `/tables/${room.id}/questions`, room.k.sara, { owner: "sara" });
    expect(
      listed.body.questions.map((q: { question: { question: string }; state: string }) => [
        q.question.question,
        q.state,
      ]),
    ).toEqual([[id, "open"]]);
    // Neither the other party nor its seat can see it.
    expect(
      (await relay.read(room.id, `/tables/${room.id}/questions`, room.k.ben, { owner: "ben" })).body.questions,
    ).toEqual([]);
    expect(
      (
        await relay.read(room.id, `/tables/${room.id}/questions/${id}`, await room.seatKey("ben-bot"), {
          seat: "ben-bot",
        })
      ).body.error.code,
    ).toBe("E_UNKNOWN_QUESTION");

    const given = await headUnmoved(relay, room.id, () => answer(room, id, "hold", room.k.sara, "sara", "sara-bot"));
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({ verified: true, via: "owner_key", value: "hold" });
    await evictDurableObject(stub(room.id));
    const read = await relay.read(room.id, `/tables/${room.id}/questions/${id}`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(read.body).toMatchObject({
      state: "answered",
      answer: { verified: true, value: "hold", sig: given.body.sig },
    });
    const exported = (await relay.read(room.id, `/tables/${room.id}/export`, room.k.sara, { owner: "sara" }))
      .body as string;
    expect(exported).not.toContain("Seller holds");
    session.ws.close();
  });

  it("reaches the owner's proven chat channel, and a chat answer comes marked unverified", async () => {
    const room = await RoomHttp.open(relay, "owner-ask-chat", { cast: CAST });
    await bindVia("telegram", room.k.sara, "8301");
    await drain(room.k.sara.publicKeyText);
    const { request, reply } = await ask(room, "sara-bot", { text: "Go up to 2,900?", choices: ["yes", "no"] });
    expect(reply.body).toMatchObject({ queued: 1 });
    await drain(room.k.sara.publicKeyText);
    const sent = (await requests('"chat_id":"8301"')).map((r) => JSON.stringify(r.body));
    expect(sent.some((body) => body.includes("Go up to 2,900?") && body.includes("trestle answer"))).toBe(true);
    const id = request.question.question;
    const attested = await stub(room.id).answerAttested({
      question: id,
      owner_key: room.k.sara.publicKeyText,
      via: "telegram",
      value: { choice: 0 },
    });
    expect(attested).toMatchObject({ ok: true, value: { verified: false, via: "telegram", value: "yes" } });
  });

  describe("when a question or an answer is refused", () => {
    it("refuses at once, with nothing kept, a question nobody can answer now", async () => {
      // Ben binds no chat in this file (owner objects are per key, shared by the file's tests).
      const room = await RoomHttp.open(relay, "owner-ask-nobody", { cast: CAST });
      await room.admit(room.k.ben, "ben", "ben-bot");
      const { reply } = await headUnmoved(relay, room.id, () => ask(room, "ben-bot"));
      expect(reply.status).toBe(409);
      expect(reply.body.error).toMatchObject({ code: "E_NO_ANSWERER", details: { owner: "ben" } });
      expect(
        (await relay.read(room.id, `/tables/${room.id}/questions`, room.k.ben, { owner: "ben" })).body.questions,
      ).toEqual([]);
    });

    it("refuses a second answer, another owner's answer, an answer for another seat, and a value outside the choices", async () => {
      const room = await RoomHttp.open(relay, "owner-ask-refusals", { cast: CAST });
      await room.admit(room.k.ben, "ben", "ben-bot");
      const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
      const { request } = await ask(room, "sara-bot", { choices: ["accept", "hold"] });
      const id = request.question.question;
      expect((await answer(room, id, "hold", room.k.ben, "ben", "sara-bot")).body.error.code).toBe("E_FORBIDDEN");
      expect((await answer(room, id, "hold", room.k.sara, "sara", "ben-bot")).body.error.code).toBe("E_FORBIDDEN");
      expect((await answer(room, id, "hold", room.k.ben, "sara", "sara-bot")).body.error.code).toBe("E_BAD_SIGNATURE");
      expect((await answer(room, id, "maybe", room.k.sara, "sara", "sara-bot")).body.error.code).toBe("E_SCHEMA");
      expect((await answer(room, id, "accept", room.k.sara, "sara", "sara-bot")).status).toBe(201);
      const second = await answer(room, id, "hold", room.k.sara, "sara", "sara-bot");
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe("E_ALREADY_RESOLVED");
      const chat = await stub(room.id).answerAttested({
        question: id,
        owner_key: room.k.sara.publicKeyText,
        via: "telegram",
        value: { choice: 1 },
      });
      expect(chat).toMatchObject({ ok: false, error: { code: "E_ALREADY_RESOLVED" } });
      expect((await answer(room, fresh("q"), "hold", room.k.sara, "sara", "sara-bot")).body.error.code).toBe(
        "E_UNKNOWN_QUESTION",
      );
      session.ws.close();
    });

    it("refuses an answer after the deadline, and reads the question as expired", async () => {
      const room = await RoomHttp.open(relay, "owner-ask-expired", { cast: CAST });
      const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
      const { request } = await ask(room, "sara-bot", { deadline: Date.now() + 5_000 });
      const id = request.question.question;
      await runInDurableObject(stub(room.id), (instance: TableDO) => {
        instance.table.now = () => Date.now() + 10_000;
      });
      const late = await answer(room, id, "yes", room.k.sara, "sara", "sara-bot");
      expect(late.body.error.code).toBe("E_EXPIRED");
      expect(
        (
          await readAt(
            room.id,
            `/tables/${room.id}/questions/${id}`,
            await room.seatKey("sara-bot"),
            { seat: "sara-bot" },
            10_000,
          )
        ).body.state,
      ).toBe("expired");
      session.ws.close();
    });

    it("refuses plaintext in an end-to-end encrypted room, and a chat channel does not count as an answerer there", async () => {
      const room = await RoomHttp.open(relay, "owner-ask-e2e", { cast: CAST, overrides: { room: { e2e: true } } });
      await bindVia("telegram", room.k.sara, "8302");
      await drain(room.k.sara.publicKeyText);
      expect((await ask(room, "sara-bot")).reply.body.error.code).toBe("E_PLAINTEXT");
      const sealed = `e2e1:${"A".repeat(60)}`;
      expect((await ask(room, "sara-bot", { text: sealed })).reply.body.error.code).toBe("E_NO_ANSWERER");
    });
  });
});

describe("an owner's instruction to its seat", () => {
  it("reaches that seat alone, marked verified, and survives an eviction", async () => {
    const room = await RoomHttp.open(relay, "owner-instruct", { cast: CAST });
    await room.admit(room.k.ben, "ben", "ben-bot");
    const sent = await headUnmoved(relay, room.id, async () =>
      relay.request(
        "POST",
        `/tables/${room.id}/instructions`,
        await signInstruction(room.k.sara, {
          table: room.id,
          owner: "sara",
          seat: "sara-bot",
          text: "Do not go past 2,900.",
          nonce: fresh("i"),
          ts: Date.now(),
        }),
      ),
    );
    expect(sent.body).toEqual({ n: 1 });
    await evictDurableObject(stub(room.id));
    const read = await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(read.body.instructions).toMatchObject([
      { n: 1, verified: true, via: "owner_key", text: "Do not go past 2,900." },
    ]);
    expect(
      (
        await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("ben-bot"), {
          seat: "ben-bot",
        })
      ).body.instructions,
    ).toEqual([]);
    const chat = await stub(room.id).instructAttested({
      seat: "sara-bot",
      owner_key: room.k.sara.publicKeyText,
      via: "line",
      text: "Hold for an hour.",
    });
    expect(chat).toMatchObject({ ok: true, value: { n: 2 } });
    const after = await relay.read(room.id, `/tables/${room.id}/instructions?after=1`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(after.body.instructions).toMatchObject([{ n: 2, verified: false, via: "line", text: "Hold for an hour." }]);
  });

  describe("when an instruction is refused", () => {
    it("refuses another owner's instruction and a chat account bound to another owner", async () => {
      const room = await RoomHttp.open(relay, "owner-instruct-other", { cast: CAST });
      await room.admit(room.k.ben, "ben", "ben-bot");
      const forged = await signInstruction(room.k.ben, {
        table: room.id,
        owner: "ben",
        seat: "sara-bot",
        text: "Accept anything.",
        nonce: fresh("i"),
        ts: Date.now(),
      });
      expect((await relay.request("POST", `/tables/${room.id}/instructions`, forged)).body.error.code).toBe(
        "E_FORBIDDEN",
      );
      const chat = await stub(room.id).instructAttested({
        seat: "sara-bot",
        owner_key: room.k.ben.publicKeyText,
        via: "telegram",
        text: "Accept anything.",
      });
      expect(chat).toMatchObject({ ok: false, error: { code: "E_FORBIDDEN" } });
      expect(
        (await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, room.k.sara, { owner: "sara" })).body
          .error.code,
      ).toBe("E_FORBIDDEN");
    });
  });
});

/** A signed read at the table's moved clock. */
async function readAt(id: string, path: string, signer: Signer, as: Principal, ms: number) {
  const authorization = await signHttpAuth(signer, { table: id, as, method: "GET", path, now: Date.now() + ms });
  return relay.request("GET", path, undefined, { authorization });
}
