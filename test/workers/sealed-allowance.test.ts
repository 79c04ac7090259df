/**
 * The sealed-text allowance (docs/SPEC.md §5.12, §5.14, decision 0448): text shaped as sealed text
 * (`e2e1:` + base64url) earns its larger length only in an end-to-end encrypted room. In any other
 * table a seat's note and question, an owner's answer and instruction (signed, or from chat) keep
 * their plain limits, and a refusal changes nothing: nothing kept, nothing listed to the owner,
 * nothing queued to chat, the same signed request refused the same way again, and the message
 * naming the field as the caller sent it. A projection cuts a long body in any table but an e2e
 * room, whatever its shape.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { questionRef } from "../../src/chat/question.js";
import {
  isSealedText,
  LIMITS,
  sealedChars,
  signAnswer,
  signInstruction,
  signNote,
  signQuestion,
  signStatement,
  TrestleError,
} from "../../src/protocol/index.js";
import { drain, ownerDO, postTelegram, requests, telegramText } from "../support/chat-driver.js";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import { bound } from "../support/chat-room.js";
import { visibleText } from "../support/chat-limits.js";
import { ownerSession } from "../support/gateway.js";
import { headUnmoved, RelayHttp, type Reply } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";
import { roomCast } from "../support/room-fixture.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings count per owner key, and other files share the relay. */
const CAST = "sealed-allowance";
/** Sara's Telegram account in this file. */
const SARA = "34001";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const stub = (id: string) => env.TABLES.getByName(id);
let unique = 0;
const fresh = (label: string) => nonceOf(`${label}:${(unique += 1)}:${Math.random()}`);

/** A text of exactly `chars` UTF-16 units that has the sealed form (the relay cannot tell it from a real one). */
function sealedShaped(chars: number): string {
  const text = `e2e1:${"A".repeat(chars - 5)}`;
  expect(isSealedText(text)).toBe(true);
  return text;
}

/** Everything the table keeps outside its ledger (questions, instructions, nonces, counts), by key. */
async function kept(id: string): Promise<string> {
  return runInDurableObject(stub(id), async (_instance, state) =>
    JSON.stringify([...(await state.storage.list()).entries()]),
  );
}

/** Sends `request` twice to `path`: both refusals must be the same 413 naming `field`, and the table keeps nothing new. */
async function refusedTwice(id: string, path: string, request: unknown, field: string): Promise<Reply> {
  const before = await kept(id);
  const first = await headUnmoved(relay, id, () => relay.request("POST", path, request));
  const again = await headUnmoved(relay, id, () => relay.request("POST", path, request));
  expect(first.status, JSON.stringify(first.body)).toBe(413);
  expect(first.body.error.code).toBe("E_TOO_LARGE");
  expect(first.body.error.message).toContain(field);
  expect(JSON.stringify(first.body.error)).not.toMatch(/notify|events\[|batch/);
  expect(again).toEqual(first);
  expect(await kept(id)).toBe(before);
  return first;
}

/** What Sara's Telegram chat was sent that mentions `id`, once her object has sent all it queued. */
async function toldAbout(id: string): Promise<string[]> {
  const k = await roomCast(CAST);
  await drain(k.sara.publicKeyText);
  return (await requests(`"chat_id":"${SARA}"`)).map((r) => JSON.stringify(r.body)).filter((body) => body.includes(id));
}

/** `sara-bot` asks its owner a free-text question, which is taken; returns its id. */
async function askedOpen(room: RoomHttp): Promise<string> {
  const now = Date.now();
  const question = fresh("q");
  const asked = await signQuestion(await room.seatKey("sara-bot"), {
    table: room.id,
    seat: "sara-bot",
    question,
    text: "Your ceiling?",
    deadline: now + 60_000,
    ts: now,
  });
  expect((await relay.request("POST", `/tables/${room.id}/questions`, asked)).status).toBe(201);
  return question;
}

beforeAll(async () => {
  await bound("telegram", (await roomCast(CAST)).sara, SARA);
});

describe("when a plain room gets text shaped as sealed text over a plain limit", () => {
  it("refuses a seat's question with E_TOO_LARGE naming its text, keeps and lists nothing, tells nobody, and refuses the resend alike", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-question", { cast: CAST });
    const now = Date.now();
    const request = await signQuestion(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      question: fresh("q"),
      text: sealedShaped(3867),
      deadline: now + 60_000,
      ts: now,
    });
    await refusedTwice(room.id, `/tables/${room.id}/questions`, request, "question.text");
    expect(
      (await relay.read(room.id, `/tables/${room.id}/questions`, room.k.sara, { owner: "sara" })).body.questions,
    ).toEqual([]);
    expect(await toldAbout(room.id)).toEqual([]);
  });

  it("refuses a question whose choice is sealed-shaped past the choice limit, naming that choice", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-choice", { cast: CAST });
    const now = Date.now();
    const request = await signQuestion(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      question: fresh("q"),
      text: "Accept?",
      choices: ["yes", sealedShaped(200)],
      deadline: now + 60_000,
      ts: now,
    });
    await refusedTwice(room.id, `/tables/${room.id}/questions`, request, "question.choices[1]");
    expect(await toldAbout(room.id)).toEqual([]);
  });

  it("refuses a seat's note to its owner, keeps no nonce or count, and tells nobody", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-note", { cast: CAST });
    const request = await signNote(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      text: sealedShaped(3867),
      nonce: fresh("n"),
      ts: Date.now(),
    });
    await refusedTwice(room.id, `/tables/${room.id}/notes`, request, "note.text");
    expect(await toldAbout(room.id)).toEqual([]);
  });

  it("refuses an owner's signed instruction, and its seat reads none", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-instruction", { cast: CAST });
    const request = await signInstruction(room.k.sara, {
      table: room.id,
      owner: "sara",
      seat: "sara-bot",
      text: sealedShaped(3872),
      nonce: fresh("i"),
      ts: Date.now(),
    });
    await refusedTwice(room.id, `/tables/${room.id}/instructions`, request, "instruction.text");
    expect(
      (
        await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("sara-bot"), {
          seat: "sara-bot",
        })
      ).body.instructions,
    ).toEqual([]);
  });

  it("refuses an owner's signed answer, and the question stays open", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-answer", { cast: CAST });
    const question = await askedOpen(room);
    const request = await signAnswer(room.k.sara, {
      table: room.id,
      owner: "sara",
      seat: "sara-bot",
      question,
      value: sealedShaped(3872),
      ts: Date.now(),
    });
    await refusedTwice(room.id, `/tables/${room.id}/questions/${question}/answer`, request, "answer.value");
    const read = await relay.read(room.id, `/tables/${room.id}/questions/${question}`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(read.body).toMatchObject({ state: "open" });
    expect(read.body.answer).toBeUndefined();
  });

  it("refuses a chat /instruct past the plain limit with E_TOO_LARGE naming its text, and its seat reads none", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-chat-instruct", { cast: CAST });
    const before = await kept(room.id);
    const reply = await headUnmoved(relay, room.id, async () =>
      visibleText(
        "telegram",
        (await postTelegram(telegramText(Number(SARA), `/instruct sara-bot@${room.id} ${sealedShaped(3872)}`))).body,
      ),
    );
    expect(reply).toContain("E_TOO_LARGE");
    expect(reply).toContain(`at most ${LIMITS.note_chars} chars`);
    expect(await kept(room.id)).toBe(before);
    expect(
      (
        await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("sara-bot"), {
          seat: "sara-bot",
        })
      ).body.instructions,
    ).toEqual([]);
  });

  it("refuses a chat /answer past the plain limit with E_TOO_LARGE, and the question stays open", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-chat-answer", { cast: CAST });
    const question = await askedOpen(room);
    await drain(room.k.sara.publicKeyText);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    const before = await kept(room.id);
    const reply = visibleText(
      "telegram",
      (await postTelegram(telegramText(Number(SARA), `/answer ${ref} ${sealedShaped(3872)}`))).body,
    );
    expect(reply).toContain("E_TOO_LARGE");
    expect(await kept(room.id)).toBe(before);
    const read = await relay.read(room.id, `/tables/${room.id}/questions/${question}`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(read.body).toMatchObject({ state: "open" });
  });
});

describe("the sealed allowance in an end-to-end encrypted room", () => {
  it("takes sealed text up to the sealed length of the plain limit, and no longer", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-e2e", { cast: CAST, overrides: { room: { e2e: true } } });
    const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
    const longest = sealedShaped(sealedChars(LIMITS.note_chars));
    // Signed as is: the client library refuses the longer one before signing.
    const instruct = async (text: string) => {
      const instruction = {
        scope: "owner_instruction",
        table: room.id,
        owner: "sara",
        seat: "sara-bot",
        text,
        nonce: fresh("i"),
        ts: Date.now(),
      };
      return relay.request("POST", `/tables/${room.id}/instructions`, {
        instruction,
        sig: await signStatement(room.k.sara, "instruction", instruction),
      });
    };
    expect((await instruct(longest)).status).toBe(201);
    expect((await instruct(sealedShaped(longest.length + 4))).body.error.code).toBe("E_TOO_LARGE");
    const now = Date.now();
    const asked = await signQuestion(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      question: fresh("q"),
      text: longest,
      deadline: now + 60_000,
      ts: now,
    });
    expect((await relay.request("POST", `/tables/${room.id}/questions`, asked)).status).toBe(201);
    session.ws.close();
  });
});

describe("a projection's body cut", () => {
  it("cuts a sealed-shaped body in a plain room like any other long body", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-cut-plain", { cast: CAST });
    const body = sealedShaped(LIMITS.projection_body_chars + 1000);
    expect((await room.write("sara-bot", { kind: "say", body })).status).toBe(201);
    const tail = (
      await relay.read(room.id, `/tables/${room.id}/projection`, await room.seatKey("sara-bot"), { seat: "sara-bot" })
    ).body.tail;
    const said = tail.find((e: { kind: string }) => e.kind === "say");
    expect(said.body).toHaveLength(LIMITS.projection_body_chars);
    expect(said.more).toBe(`entry:${said.seq}`);
  });

  it("keeps a sealed body whole in an e2e room", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-cut-e2e", {
      cast: CAST,
      overrides: { room: { e2e: true } },
    });
    const body = sealedShaped(LIMITS.projection_body_chars + 1000);
    expect((await room.write("sara-bot", { kind: "say", body })).status).toBe(201);
    const tail = (
      await relay.read(room.id, `/tables/${room.id}/projection`, await room.seatKey("sara-bot"), { seat: "sara-bot" })
    ).body.tail;
    expect(tail.find((e: { kind: string }) => e.kind === "say")).toMatchObject({ body });
  });
});

describe("when the owner's object refuses a question's notice", () => {
  it("answers E_UNAVAILABLE without the object's internals, and the same signed question sent again reaches the owner", async () => {
    const room = await RoomHttp.open(relay, "sealed-allowance-handoff", { cast: CAST });
    const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
    const key = room.k.sara.publicKeyText;
    // The object fails inside notify as a busy host would, with a message naming its own internals.
    await runInDurableObject(ownerDO(key), (o: OwnerDO) => {
      Reflect.set(o, "parts", () => {
        throw new TrestleError("E_UNAVAILABLE", "notify batch at events[0]: the owner's storage is busy");
      });
    });
    const now = Date.now();
    const request = await signQuestion(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      question: fresh("q"),
      text: "Hold at 2,800?",
      deadline: now + 60_000,
      ts: now,
    });
    const failed = await relay.request("POST", `/tables/${room.id}/questions`, request);
    await runInDurableObject(ownerDO(key), (o: OwnerDO) => {
      Reflect.deleteProperty(o, "parts");
    });
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe("E_UNAVAILABLE");
    expect(JSON.stringify(failed.body.error)).not.toMatch(/notify|events\[|batch/);
    const again = await relay.request("POST", `/tables/${room.id}/questions`, request);
    expect(again.body).toMatchObject({ question: request.question.question, queued: 1 });
    expect((await toldAbout(room.id)).some((body) => body.includes("Hold at 2,800?"))).toBe(true);
    session.ws.close();
  });
});
