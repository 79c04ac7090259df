/**
 * Room news in the owners' chat apps (docs/CHAT-APPS.md "Room news"): a room's offers, counters,
 * rejections, accepts, deal signatures, settlements and ejections reach each owner's bound chats
 * through the owners' outboxes, as many kinds as the owner's signed config asks for (`all`,
 * `commitments` by default, `none`); about an e2e room without terms; in the owner's language; and
 * a note telling of a held message reaches the owner as news. The fake chat API (test/support)
 * refuses anything over a platform's published limits.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import {
  dealStatement,
  signNote,
  signStatement,
  type ChatPlatform,
  type Entry,
  type Lang,
  type Signer,
  type TableConfig,
} from "../../src/protocol/index.js";
import { bindVia, drain, requests } from "../support/chat-driver.js";
import { limitViolations, visibleText } from "../support/chat-limits.js";
import { accountsFrom, relay, settle } from "../support/chat-room.js";
import { headUnmoved } from "../support/relay-http.js";
import { expect201, RoomHttp } from "../support/room-http.js";
import { roomCast, twd } from "../support/room-fixture.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "room-news";

const stub = (id: string) => env.TABLES.getByName(id);

/** The room's entries as sara reads them. */
async function entries(room: RoomHttp): Promise<Entry[]> {
  return (await relay.read(room.id, `/tables/${room.id}/entries?from=1`, room.k.sara, { owner: "sara" })).body.items;
}

/** The leaf of the room's newest entry (how an offer is named). */
async function lastLeaf(room: RoomHttp): Promise<string> {
  return (await entries(room)).at(-1)!.leaf;
}

/** `seat` records `owner`'s deal_sign on accepted offer `offer`. */
async function sign(room: RoomHttp, seat: string, offer: string, owner: Signer) {
  const deal = await runInDurableObject(stub(room.id), (t: TableDO) => t.table.state!.room!.deals[offer]!.terms_sha256);
  const owner_sig = await signStatement(owner, "deal", dealStatement(room.id, deal));
  return expect201(
    await room.write(seat, { kind: "deal_sign", offer, deal, owner_key: owner.publicKeyText, owner_sig }),
  );
}

/** Binds `account` on `platform` to `owner` in `lang` and delivers its first message. */
async function bound(platform: ChatPlatform, owner: Signer, account: string, chat = account, lang: Lang = "en") {
  await bindVia(platform, owner, account, chat, lang);
  await drain(owner.publicKeyText);
}

/** The request bodies sent to `chat` on `platform` so far. */
async function sent(platform: ChatPlatform, chat: string): Promise<Record<string, unknown>[]> {
  const field =
    platform === "line"
      ? `"to":"${chat}"`
      : platform === "discord"
        ? `/discord/channels/${chat}/messages`
        : `"chat_id":"${chat}"`;
  return (await requests(field)).filter((r) => r.delivered).map((r) => r.body as Record<string, unknown>);
}

/** What `chat` on `platform` was sent so far, as its reader sees each message. */
async function seen(platform: ChatPlatform, chat: string): Promise<string[]> {
  return (await sent(platform, chat)).map((body) => visibleText(platform, body));
}

/** The room news titles (English) among `texts`, in order. */
const NEWS = [
  "New offer",
  "Counter-offer",
  "Offer accepted",
  "Offer rejected",
  "Deal pending",
  "Deal done",
  "No deal",
  "Seat ejected",
  "Your approval is needed",
];
function newsTitles(texts: string[]): string[] {
  return texts.flatMap((text) => NEWS.filter((title) => text.startsWith(title)));
}

/** Opens a room with sara's and cleo's room_news as given (ben, admitted by invite, has the default). */
async function newsRoom(
  id: string,
  sara: TableConfig["owners"][string]["room_news"],
  cleo: TableConfig["owners"][string]["room_news"],
  extra: Partial<TableConfig> = {},
) {
  const k = await roomCast(CAST);
  const owners: TableConfig["owners"] = {
    sara: { public_key: k.sara.publicKeyText, ...(sara ? { room_news: sara } : {}) },
    cleo: { public_key: k.cleo.publicKeyText, ...(cleo ? { room_news: cleo } : {}) },
  };
  const room = await RoomHttp.open(relay, id, { cast: CAST, overrides: { owners, ...extra } });
  expect201(await room.admit(room.k.ben, "ben", "ben-bot"));
  return room;
}

/** Every owner's outbox sent. */
async function delivered(room: RoomHttp) {
  await settle(room.id);
  for (const key of [room.k.sara, room.k.ben, room.k.cleo]) await drain(key.publicKeyText);
}

describe("room news", () => {
  it("reaches each owner's chat with the kinds its config asks for: all, commitments (the default), none", async () => {
    const room = await newsRoom("room-news-kinds", "all", "none");
    await bound("telegram", room.k.sara, "92501");
    await bound("telegram", room.k.ben, "92502");
    await bound("telegram", room.k.cleo, "92503");
    expect201(await room.write("sara-bot", { kind: "offer", terms: twd(300000, "stroller") }));
    expect201(
      await room.write("ben-bot", { kind: "counter", offer: await lastLeaf(room), terms: twd(250000, "stroller") }),
    );
    expect201(await room.write("sara-bot", { kind: "reject", offer: await lastLeaf(room) }));
    expect201(await room.write("sara-bot", { kind: "offer", terms: twd(280000, "stroller") }));
    const offer = await lastLeaf(room);
    expect201(await room.write("ben-bot", { kind: "accept", offer }));
    await sign(room, "ben-bot", offer, room.k.ben);
    await sign(room, "sara-bot", offer, room.k.sara);
    await delivered(room);

    const sara = await seen("telegram", "92501");
    expect(newsTitles(sara)).toEqual([
      "New offer",
      "Counter-offer",
      "Offer rejected",
      "New offer",
      "Offer accepted",
      "Deal pending",
      "Deal done",
    ]);
    const ben = await seen("telegram", "92502");
    expect(newsTitles(ben)).toEqual(["Offer accepted", "Deal pending", "Deal done"]);
    expect(newsTitles(await seen("telegram", "92503"))).toEqual([]);
    // What each binds, in the words of every surface; a deal one owner signed is pending, never done.
    expect(ben[1]).toContain(
      'Offer accepted\nTable room-news-kinds: A second-hand stroller\nben-bot accepted 2,800.00 TWD (280000 minor units) for "stroller".',
    );
    expect(ben.find((m) => m.startsWith("Deal pending"))).toContain("not signed yet by sara");
    expect(ben.find((m) => m.startsWith("Deal done"))).toContain("both owners signed it");
  });

  it("tells of an ejection, and a close without a deal, to an owner with the default", async () => {
    const room = await newsRoom("room-news-eject", undefined, "none");
    await bound("telegram", room.k.sara, "92511");
    expect201(await room.eject("ben-bot"));
    expect201(await room.write("sara-bot", { kind: "close", outcome: "no_deal" }));
    await delivered(room);
    const sara = (await seen("telegram", "92511")).filter((m) => newsTitles([m]).length > 0);
    expect(newsTitles(sara)).toEqual(["Seat ejected", "No deal"]);
    expect(sara[0]).toContain("sara ejected seat ben-bot.");
    expect(sara[1]).toContain("sara-bot closed the room without a deal.");
  });

  it("about an e2e room carries the kind and the seat, never the terms", async () => {
    const room = await newsRoom("room-news-e2e", "all", undefined, { room: { e2e: true } });
    await bound("telegram", room.k.sara, "92521");
    await bound("telegram", room.k.ben, "92522");
    expect201(await room.write("sara-bot", { kind: "offer", terms: { amount: 280000, currency: "TWD" } }));
    expect201(await room.write("ben-bot", { kind: "accept", offer: await lastLeaf(room) }));
    await delivered(room);
    const sara = await seen("telegram", "92521");
    expect(newsTitles(sara)).toEqual(["New offer", "Offer accepted"]);
    for (const text of [...sara, ...(await seen("telegram", "92522"))]) {
      expect(text).not.toMatch(/2,800|280000|stroller/);
    }
    expect(sara.at(-1)).toContain("ben-bot accepted (terms not shown: end-to-end encrypted).");
  });

  it("is in each channel's language, and within each platform's limits with the longest topic and terms", async () => {
    const room = await newsRoom("room-news-lang", undefined, "all", { topic: `stroller ${"y".repeat(480)}` });
    const chats = accountsFrom(92530);
    for (const [platform, account, chat] of chats)
      await bound(platform, room.k.cleo, account, chat, platform === "line" ? "zh-Hant" : "en");
    expect201(await room.write("sara-bot", { kind: "offer", terms: twd(280000, "x".repeat(2000)) }));
    await delivered(room);
    for (const [platform, , chat] of chats) {
      const bodies = await sent(platform, chat);
      for (const body of bodies) expect(limitViolations(platform, body)).toEqual([]);
      const last = visibleText(platform, bodies.at(-1)!);
      expect(last).toContain(platform === "line" ? "sara-bot 報價 2,800.00 TWD" : "sara-bot offers 2,800.00 TWD");
      expect(last).toContain(`"${"x".repeat(299)}..."`);
      expect(last.startsWith(platform === "line" ? "新報價" : "New offer")).toBe(true);
    }
  });

  it("tells the owner of a held message through a held note, once per message", async () => {
    const room = await newsRoom("room-news-held", "none", undefined);
    await bound("telegram", room.k.ben, "92541");
    expect201(await room.write("sara-bot", { kind: "offer", terms: twd(280000, "stroller") }));
    const hash = "ab".repeat(32);
    const held = async () => {
      const request = await signNote(await room.seatKey("ben-bot"), {
        table: room.id,
        seat: "ben-bot",
        text: "held for your approval: accept",
        held: { kind: "accept", message_sha256: hash, terms: twd(280000, "stroller") },
        nonce: hash,
        ts: Date.now(),
      });
      return relay.request("POST", `/tables/${room.id}/notes`, request);
    };
    expect((await held()).body.queued).toBeGreaterThan(0);
    expect((await held()).body).toMatchObject({ queued: 0 });
    await drain(room.k.ben.publicKeyText);
    const ben = (await seen("telegram", "92541")).filter((m) => m.startsWith("Your approval is needed"));
    expect(ben).toHaveLength(1);
    expect(ben[0]).toContain(
      `Your agent ben-bot wants to accept 2,800.00 TWD (280000 minor units) for "stroller": approve in trestle view or with trestle gate approve ${hash.slice(0, 12)} --table room-news-held --seat ben-bot`,
    );
    // sara's config says none: a held note of hers is taken and goes nowhere.
    const hers = await signNote(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      text: "held",
      held: { kind: "offer", message_sha256: "cd".repeat(32) },
      nonce: nonceOf("sara held"),
      ts: Date.now(),
    });
    expect((await relay.request("POST", `/tables/${room.id}/notes`, hers)).body).toMatchObject({ queued: 0 });
  });

  describe("when the config or a held note is wrong", () => {
    it("refuses a room_news value the schema does not know (E_SCHEMA) and opens nothing", async () => {
      const k = await roomCast(CAST);
      const config = {
        id: "room-news-bad",
        topic: "bad",
        owners: { sara: { public_key: k.sara.publicKeyText, room_news: "everything" } },
        topology: { kind: "open" },
        termination: { any: ["decision"] },
        room: {},
      };
      const reply = await relay.create(k.sara, "sara", config as unknown as TableConfig);
      expect(reply.body.error.code).toBe("E_SCHEMA");
      expect((await relay.request("GET", `/tables/room-news-bad/head`)).status).toBe(404);
    });

    it("refuses a held note with terms about an e2e room (E_PLAINTEXT)", async () => {
      const room = await newsRoom("room-news-e2e-held", undefined, undefined, { room: { e2e: true } });
      const request = await signNote(await room.seatKey("ben-bot"), {
        table: room.id,
        seat: "ben-bot",
        text: `e2e1:${"A".repeat(60)}`,
        held: { kind: "accept", message_sha256: "ef".repeat(32), terms: twd(1) },
        nonce: nonceOf("e2e held"),
        ts: Date.now(),
      });
      const reply = await headUnmoved(relay, room.id, () => relay.request("POST", `/tables/${room.id}/notes`, request));
      expect(reply.body.error.code).toBe("E_PLAINTEXT");
    });
  });
});
