/**
 * Pauses, one per owner, on every path into the relay (docs/SPEC.md §5.5): owner-signed over HTTP
 * and relay-attested through the real chat webhooks. Another owner cannot lift a pause, a chat
 * command cannot lift a signed one, lifting one's own pause needs no seat, the table writes only
 * once every pause is lifted (the same after an eviction), and chat names every holder.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { signControl } from "../../src/client/owner-requests.js";
import { canonicalize, type ControlAction, type Signer } from "../../src/protocol/index.js";
import { drain, postTelegram, requests, telegramText } from "../support/chat-driver.js";
import { visibleText } from "../support/chat-limits.js";
import { bound, relay, room, settle } from "../support/chat-room.js";
import { headUnmoved } from "../support/relay-http.js";
import { expect201, RoomHttp } from "../support/room-http.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "pause-owners";

type Room = Awaited<ReturnType<typeof room>>;

const stub = (id: string) => env.TABLES.getByName(id);
const stateOf = (id: string) => runInDurableObject(stub(id), (t: TableDO) => canonicalize(t.table.state));

let nonces = 0;
/** POST /tables/:id/control signed by `owner` as `name`. */
async function control(id: string, owner: Signer, name: string, action: ControlAction) {
  return relay.request(
    "POST",
    `/tables/${id}/control`,
    await signControl(owner, { table: id, owner: name, action, nonce: nonceOf(`${id}:${name}:${action}:${nonces++}`) }),
  );
}

/** A chat command from Telegram account `account`; returns the bot's reply text. */
async function command(account: number, text: string): Promise<string> {
  return String((await postTelegram(telegramText(account, text))).body.text);
}

/** y (jenny's seat) says something; returns the reply. */
const say = (id: string, k: Room, body = "still here?") => relay.say(id, k.y, { seat: "y", kind: "say", body });

describe("pauses per owner", () => {
  it("refuses another owner's signed resume over HTTP, naming the holder, and the pause holds", async () => {
    const id = "pauses-http-cross";
    const k = await room(id);
    const paused = expect201(await control(id, k.tao, "tao", "pause"));
    const cross = await headUnmoved(relay, id, () => control(id, k.jenny, "jenny", "resume"));
    expect(cross).toMatchObject({
      status: 403,
      body: {
        error: { code: "E_FORBIDDEN", details: { pauses: [{ owner: "tao", via: "owner", seq: paused.body.seq }] } },
      },
    });
    expect(cross.body.error.message).toContain(`paused by tao (owner key, entry ${paused.body.seq})`);
    expect((await say(id, k)).body.error.code).toBe("E_PAUSED");
  });

  it("refuses another owner's resume from a chat app through the webhook, and the pause holds", async () => {
    const id = "pauses-chat-cross";
    const k = await room(id);
    await bound("telegram", k.tao, "96100");
    await bound("telegram", k.jenny, "96101");
    expect(await command(96100, `/pause ${id}`)).toMatch(/^Paused pauses-chat-cross \(entry \d+\)\.$/);
    const reply = await headUnmoved(relay, id, () => command(96101, `/resume ${id}`));
    expect(reply).toContain("E_FORBIDDEN");
    expect(reply).toMatch(/paused by tao \(telegram, entry \d+\)/);
    expect((await say(id, k)).body.error.code).toBe("E_PAUSED");
  });

  it("refuses the owner's own chat resume of their signed pause (E_NEEDS_SIGNATURE); their signed resume lifts it", async () => {
    const id = "pauses-signed-chat";
    const k = await room(id);
    await bound("telegram", k.tao, "96110");
    expect201(await control(id, k.tao, "tao", "pause"));
    const reply = await headUnmoved(relay, id, () => command(96110, `/resume ${id}`));
    expect(reply).toContain("E_NEEDS_SIGNATURE");
    expect(reply).toContain("only tao's own signed resume lifts it");
    expect((await say(id, k)).body.error.code).toBe("E_PAUSED");
    expect201(await control(id, k.tao, "tao", "resume"));
    expect((await say(id, k, "back")).status).toBe(201);
  });

  it("takes writes only once both pauses are lifted, and an eviction in the middle rebuilds the same state", async () => {
    const id = "pauses-two-evicted";
    const k = await room(id);
    await bound("telegram", k.jenny, "96120");
    const first = expect201(await control(id, k.tao, "tao", "pause"));
    expect(await command(96120, `/pause ${id}`)).toMatch(/^Paused/);
    const both = await say(id, k);
    expect(both.body.error).toMatchObject({
      code: "E_PAUSED",
      details: {
        pauses: [
          { owner: "tao", via: "owner", seq: first.body.seq },
          { owner: "jenny", via: "telegram" },
        ],
      },
    });

    const before = await stateOf(id);
    await evictDurableObject(stub(id));
    expect(await stateOf(id)).toBe(before);

    expect201(await control(id, k.tao, "tao", "resume"));
    expect((await say(id, k)).body.error).toMatchObject({
      code: "E_PAUSED",
      details: { pauses: [{ owner: "jenny", via: "telegram" }] },
    });
    const one = await stateOf(id);
    await evictDurableObject(stub(id));
    expect(await stateOf(id)).toBe(one);
    expect(JSON.parse(one).pauses).toEqual({ jenny: { seq: first.body.seq + 1, via: "telegram" } });

    expect(await command(96120, `/resume ${id}`)).toMatch(/^Lifted your pause on pauses-two-evicted \(entry \d+\)\.$/);
    expect((await say(id, k, "back")).status).toBe(201);
  });

  it("lets an owner whose seat was ejected lift their own pause from chat", async () => {
    const r = await RoomHttp.open(relay, "pauses-ejected", { cast: CAST });
    expect201(await r.admit(r.k.ben, "ben", "ben-bot"));
    await bound("telegram", r.k.ben, "96130");
    expect(await command(96130, `/pause ${r.id}`)).toMatch(/^Paused/);
    expect201(await r.eject("ben-bot"));
    expect((await r.write("sara-bot", { kind: "say", body: "anyone?" })).body.error.code).toBe("E_PAUSED");
    expect(await command(96130, `/resume ${r.id}`)).toMatch(/^Lifted your pause on pauses-ejected/);
    expect201(await r.write("sara-bot", { kind: "say", body: "back to it" }));
  });

  it("names every holder with how they paused, in the status and tables replies and in the notifications", async () => {
    const id = "pauses-words";
    const k = await room(id);
    await bound("telegram", k.tao, "96140");
    await bound("telegram", k.jenny, "96141");
    expect201(await control(id, k.tao, "tao", "pause"));
    expect(await command(96141, `/pause ${id}`)).toMatch(/^Paused/);
    await settle(id);
    const holders = "tao (owner key), jenny (Telegram)";
    expect(await command(96140, "/status")).toContain(`${id} is paused by ${holders}.`);
    expect(await command(96140, "/tables")).toContain(`${id} (paused by ${holders}): Who updates the taskboard?`);
    await drain(k.tao.publicKeyText);
    const sent = (await requests(`"chat_id":"96140"`)).map((r) =>
      visibleText("telegram", r.body as Record<string, unknown>),
    );
    expect(sent.find((text) => text.includes("jenny put their pause on it (Telegram)."))).toContain(
      `Paused by ${holders}.`,
    );
  });
});
