/**
 * Answers and instructions from chat apps (docs/SPEC.md §5.14, docs/CHAT-APPS.md, decision 0413):
 * a seat's question reaches its owner's bound chat with a button per choice, and a tap (or, for
 * free text, a Telegram reply, LINE's `/answer` or Discord's `/answer`), signed exactly as each
 * platform signs webhooks, reaches the seat relay-attested (`verified: false`, `via` the platform).
 * `/instruct` reaches the owner's seat the same way (the table may go unnamed when the owner has one
 * open table). Each refusal is a reply naming its code and records nothing; about an e2e room the
 * message says only that there is a question.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { questionRef } from "../../src/chat/question.js";
import { signQuestion, type ChatPlatform, type Signer } from "../../src/protocol/index.js";
import {
  discordCommand,
  drain,
  ownerDO,
  postDiscord,
  postLine,
  postTelegram,
  requests,
  tapVia,
  telegramText,
  lineText,
} from "../support/chat-driver.js";
import { buttonData, limitViolations, visibleText } from "../support/chat-limits.js";
import { accountsFrom, bound, relay, room as taskRoom } from "../support/chat-room.js";
import { ownerSession } from "../support/gateway.js";
import { headUnmoved } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";
import { roomCast } from "../support/room-fixture.js";
import { nonceOf } from "../support/table-fixture.js";
import { unwrap } from "../../durable-objects/result.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "chat-answers";

let unique = 0;
const fresh = (label: string) => nonceOf(`${label}:${(unique += 1)}:${Math.random()}`);
const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const stub = (id: string) => env.TABLES.getByName(id);
/** Where the fake saw messages to `chat` on `platform`. */
const sentTo = (platform: ChatPlatform, chat: string) =>
  platform === "telegram"
    ? `"chat_id":"${chat}"`
    : platform === "line"
      ? `"to":"${chat}"`
      : `/discord/channels/${chat}/messages`;

/** `seat` of `room` asks its owner; the question reaches the owner's channels. Returns the question's id. */
async function asked(
  room: RoomHttp,
  seat: string,
  owner: Signer,
  fields: { text?: string; choices?: string[] } = { choices: ["accept", "hold"] },
): Promise<string> {
  const now = Date.now();
  const question = fresh("q");
  const request = await signQuestion(await room.seatKey(seat), {
    table: room.id,
    seat,
    question,
    text: fields.text ?? "Seller holds at 2,800. Accept?",
    ...(fields.choices ? { choices: fields.choices } : {}),
    deadline: now + 60_000,
    ts: now,
  });
  const reply = await relay.request("POST", `/tables/${room.id}/questions`, request);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  await drain(owner.publicKeyText);
  return question;
}

/** The newest message the fake saw for `chat` on `platform`, checked against the platform's published limits. */
async function lastSent(platform: ChatPlatform, chat: string): Promise<Record<string, any>> {
  const body = (await requests(sentTo(platform, chat))).at(-1)!.body as Record<string, any>;
  expect(limitViolations(platform, body)).toEqual([]);
  return body;
}

/** The question as its seat reads it. */
async function read(room: RoomHttp, seat: string, question: string) {
  return (await relay.read(room.id, `/tables/${room.id}/questions/${question}`, await room.seatKey(seat), { seat }))
    .body;
}

/** A Discord slash command with named options. */
function discordSlash(user: string, channel: string, name: string, options: Record<string, string>) {
  const base = discordCommand(user, channel, name);
  return {
    ...base,
    data: {
      ...base.data,
      options: Object.entries(options).map(([option, value]) => ({ name: option, type: 3, value })),
    },
  };
}

/** A Discord reply's content as its reader sees it (markdown escapes undone). */
const unescapeDiscord = (content: string) => content.replace(/\\(.)/g, "$1");

/** Taps `data` as tapVia does; the reply as its reader sees it. */
async function tap(
  platform: ChatPlatform,
  account: string,
  data: string,
  chat = account,
): Promise<{ status: number; text: string }> {
  const tapped = await tapVia(platform, account, data, chat);
  return platform === "discord" ? { ...tapped, text: unescapeDiscord(tapped.text) } : tapped;
}

/** Sends `text` from `account` on `platform` (`chat` for Discord's channel) as a command; returns the reply text. */
async function say(platform: ChatPlatform, account: string, text: string, chat = account): Promise<string> {
  if (platform === "telegram")
    return visibleText("telegram", (await postTelegram(telegramText(Number(account), text))).body);
  if (platform === "discord") {
    const [name, first, ...rest] = text.replace(/^\//, "").split(" ");
    const options: Record<string, string> =
      name === "answer" ? { code: first!, text: rest.join(" ") } : { seat: first!, text: rest.join(" ") };
    return unescapeDiscord((await postDiscord(discordSlash(account, chat, name!, options))).body.data.content);
  }
  const event = lineText(account, text);
  await postLine([event]);
  return ((await requests(event.replyToken)).at(-1)?.body as { messages: { text: string }[] }).messages[0]!.text;
}

/** Sara's one account per platform (an owner makes at most 5 bind codes per 15 minutes), and ben's Telegram account. */
const ACCOUNTS: readonly (readonly [ChatPlatform, string, string])[] = [
  ["telegram", "97001", "97001"],
  ["line", "U97002", "U97002"],
  ["discord", "97003", "997003"],
];
const BEN = "97004";

beforeAll(async () => {
  const k = await roomCast(CAST);
  for (const [platform, account, chat] of ACCOUNTS) await bound(platform, k.sara, account, chat);
  await bound("telegram", k.ben, BEN);
});

describe("a question with choices in a bound chat", () => {
  it.each(ACCOUNTS)(
    "is answered by a tap on %s, and the seat gets it relay-attested",
    async (platform, account, chat) => {
      const room = await RoomHttp.open(relay, `chat-answer-tap-${platform}`, { cast: CAST });
      const question = await asked(room, "sara-bot", room.k.sara);
      const body = await lastSent(platform, chat);
      const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
      expect(buttonData(platform, body)).toEqual([`q1.${ref}.0`, `q1.${ref}.1`]);

      const tapped = await headUnmoved(relay, room.id, () => tap(platform, account, `q1.${ref}.1`, chat));
      expect(tapped.status).toBe(200);
      expect(tapped.text).toContain(`Answered seat sara-bot's question at ${room.id}`);
      expect(await read(room, "sara-bot", question)).toMatchObject({
        state: "answered",
        answer: { verified: false, via: platform, value: "hold" },
      });
    },
  );
});

describe("a free-text question in a bound chat", () => {
  it("is answered by a reply to its Telegram message", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-reply", { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara, { text: "What is your ceiling?" });
    const body = await lastSent("telegram", "97001");
    expect(body.reply_markup).toEqual({ force_reply: true });
    const update = telegramText(97001, "2,900, not a cent more");
    const reply = await postTelegram({
      ...update,
      message: { ...update.message, reply_to_message: { message_id: 2, text: visibleText("telegram", body) } },
    });
    expect(visibleText("telegram", reply.body)).toContain("Answered seat sara-bot's question");
    expect(await read(room, "sara-bot", question)).toMatchObject({
      answer: { verified: false, via: "telegram", value: "2,900, not a cent more" },
    });
  });

  it.each(ACCOUNTS.slice(1))("is answered by /answer <code> <text> on %s", async (platform, account, chat) => {
    const room = await RoomHttp.open(relay, `chat-answer-command-${platform}`, { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara, { text: "What is your ceiling?" });
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect(visibleText(platform, await lastSent(platform, chat))).toContain(`/answer ${ref} <your answer>`);
    expect(await say(platform, account, `/answer ${ref} 2,900 at most`, chat)).toContain(
      "Answered seat sara-bot's question",
    );
    expect(await read(room, "sara-bot", question)).toMatchObject({
      answer: { verified: false, via: platform, value: "2,900 at most" },
    });
  });
});

describe("when an answer from chat is refused", () => {
  it("refuses a question past its deadline with E_EXPIRED", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-expired", { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    await runInDurableObject(stub(room.id), (instance: TableDO) => {
      instance.table.now = () => Date.now() + 120_000;
    });
    expect((await tap("telegram", "97001", `q1.${ref}.0`)).text).toContain("E_EXPIRED");
    expect((await read(room, "sara-bot", question)).answer).toBeUndefined();
  });

  it("refuses a second answer with E_ALREADY_RESOLVED and keeps the first", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-twice", { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect((await tap("telegram", "97001", `q1.${ref}.0`)).text).toContain("Answered");
    expect((await tap("telegram", "97001", `q1.${ref}.1`)).text).toContain("E_ALREADY_RESOLVED");
    expect((await read(room, "sara-bot", question)).answer).toMatchObject({ value: "accept" });
  });

  it("refuses an account bound to another owner with E_UNKNOWN_QUESTION: it finds no such question among its own", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-other-account", { cast: CAST });
    await room.admit(room.k.ben, "ben", "ben-bot");
    const question = await asked(room, "sara-bot", room.k.sara);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect((await tap("telegram", BEN, `q1.${ref}.0`)).text).toContain("E_UNKNOWN_QUESTION");
    expect(await say("telegram", BEN, `/answer ${ref} accept`)).toContain("E_UNKNOWN_QUESTION");
    expect((await read(room, "sara-bot", question)).answer).toBeUndefined();
  });

  it("refuses, at the table, a question of a seat another owner holds with E_FORBIDDEN, even when that question reached this owner", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-other-seat", { cast: CAST });
    await room.admit(room.k.ben, "ben", "ben-bot");
    const question = await asked(room, "sara-bot", room.k.sara);
    // Plant sara-bot's question in ben's own object, as if it had been sent to him.
    const id = `${room.id}:question:${question}`;
    const event = {
      type: "owner_question",
      id,
      table: room.id,
      topic: "t",
      seat: "sara-bot",
      question,
      text: "Accept?",
      choices: ["accept", "hold"],
      deadline: Date.now() + 60_000,
    };
    unwrap(await ownerDO(room.k.ben.publicKeyText).notify({ owner_key: room.k.ben.publicKeyText, events: [event] }));
    const ref = questionRef(room.k.ben.publicKeyText, id);
    expect((await tap("telegram", BEN, `q1.${ref}.0`)).text).toContain("E_FORBIDDEN");
    expect((await read(room, "sara-bot", question)).answer).toBeUndefined();
  });

  it("refuses an unknown question with E_UNKNOWN_QUESTION, and a choice not among the choices with E_SCHEMA", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-bad-choice", { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect((await tap("telegram", "97001", `q1.${"A".repeat(16)}.0`)).text).toContain("E_UNKNOWN_QUESTION");
    expect((await tap("telegram", "97001", `q1.${ref}.5`)).text).toContain("E_SCHEMA");
    expect(await say("telegram", "97001", `/answer ${ref} maybe`)).toContain("E_SCHEMA");
    expect(await say("telegram", "97001", "/answer nocode")).toContain("Send /answer <code> <your answer>");
    expect((await read(room, "sara-bot", question)).answer).toBeUndefined();
  });
});

describe("when a free-text answer from chat is too long", () => {
  it("refuses it with E_TOO_LARGE, as a signed answer of that length would be", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-too-long", { cast: CAST });
    const question = await asked(room, "sara-bot", room.k.sara, { text: "What is your ceiling?" });
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect(await say("telegram", "97001", `/answer ${ref} ${"9".repeat(1001)}`)).toContain("E_TOO_LARGE");
    expect((await read(room, "sara-bot", question)).answer).toBeUndefined();
  });
});

describe("a question about an end-to-end encrypted room", () => {
  it("reaches the chat as a pointer to the window and the CLI, with no text, no buttons and no code; a crafted tap is refused", async () => {
    const room = await RoomHttp.open(relay, "chat-answer-e2e", { cast: CAST, overrides: { room: { e2e: true } } });
    const session = await ownerSession(fetcher, room.id, "sara", room.k.sara);
    const question = await asked(room, "sara-bot", room.k.sara, {
      text: `e2e1:${"A".repeat(60)}`,
      choices: [`e2e1:${"B".repeat(60)}`, `e2e1:${"C".repeat(60)}`],
    });
    const body = await lastSent("telegram", "97001");
    const text = visibleText("telegram", body);
    const ref = questionRef(room.k.sara.publicKeyText, `${room.id}:question:${question}`);
    expect(body.reply_markup).toBeUndefined();
    expect(text).toContain("the relay cannot read the question");
    expect(text).toContain(`trestle answer ${question} --table ${room.id}`);
    expect(text).not.toContain("e2e1:");
    expect(text).not.toContain(ref);
    expect((await tap("telegram", "97001", `q1.${ref}.0`)).text).toContain("E_NEEDS_SIGNATURE");
    session.ws.close();
  });
});

describe("an instruction from chat", () => {
  it.each(ACCOUNTS)("reaches the owner's seat from %s, relay-attested", async (platform, account, chat) => {
    const room = await RoomHttp.open(relay, `chat-instruct-${platform}`, { cast: CAST });
    const target = platform === "discord" ? "sara-bot" : `sara-bot@${room.id}`;
    const reply = await headUnmoved(relay, room.id, () =>
      platform === "discord"
        ? discordInstruct(account, chat, room.id)
        : say(platform, account, `/instruct ${target} Hold at 2,800.`),
    );
    expect(reply).toContain(`Sent to seat sara-bot at ${room.id}`);
    const read = await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("sara-bot"), {
      seat: "sara-bot",
    });
    expect(read.body.instructions).toMatchObject([{ n: 1, verified: false, via: platform, text: "Hold at 2,800." }]);
  });

  it.each(accountsFrom(97021))(
    "reaches the seat named without @table from %s when its owner has exactly one open table",
    async (platform, account, chat) => {
      const id = `chat-instruct-one-table-${platform}`;
      const k = await taskRoom(id);
      await bound(platform, k.jenny, account, chat);
      const reply = await headUnmoved(relay, id, () => say(platform, account, "/instruct y Hold at 2,800.", chat));
      expect(reply).toContain(`Sent to seat y at ${id}`);
      const read = await relay.read(id, `/tables/${id}/instructions?after=0`, k.y, { seat: "y" });
      expect(read.body.instructions).toMatchObject([{ n: 1, verified: false, via: platform, text: "Hold at 2,800." }]);
    },
  );

  describe("when an instruction from chat is refused", () => {
    it("refuses a seat its owner does not hold with E_FORBIDDEN, an unknown seat with E_UNKNOWN_SEAT, and asks for the table when several are open", async () => {
      const room = await RoomHttp.open(relay, "chat-instruct-refused", { cast: CAST });
      await RoomHttp.open(relay, "chat-instruct-refused-2", { cast: CAST });
      await room.admit(room.k.ben, "ben", "ben-bot");
      expect(await say("telegram", "97001", `/instruct ben-bot@${room.id} Accept anything.`)).toContain("E_FORBIDDEN");
      expect(await say("telegram", "97001", `/instruct nobody@${room.id} Accept anything.`)).toContain(
        "E_UNKNOWN_SEAT",
      );
      expect(await say("telegram", "97001", "/instruct sara-bot Hold.")).toContain("/instruct <seat>@<table> <text>");
      const read = await relay.read(room.id, `/tables/${room.id}/instructions?after=0`, await room.seatKey("ben-bot"), {
        seat: "ben-bot",
      });
      expect(read.body.instructions).toEqual([]);
    });
  });
});

/** Discord's /instruct with its seat, text and table options. */
async function discordInstruct(account: string, chat: string, table: string): Promise<string> {
  return unescapeDiscord(
    (await postDiscord(discordSlash(account, chat, "instruct", { seat: "sara-bot", text: "Hold at 2,800.", table })))
      .body.data.content,
  );
}
