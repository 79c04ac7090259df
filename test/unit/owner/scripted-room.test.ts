/**
 * The scripted room of issue 25, end to end in Node against a real relay whose Telegram API is the
 * loopback fake: bot-tao asks tao (choices), tao answers by tapping a button in Telegram (the
 * webhook carries the secret token exactly as Telegram sends it), bot-jenny offers, bot-tao's
 * accept is held by tao's commitment gate, tao approves it by click in the principal window
 * (real Chromium) and the seat sends it, both owners sign the deal, and the deal certificate made
 * from the export verifies offline under the relay key alone. Every message the fake received is
 * checked against Telegram's published types and limits.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../src/client/node.js";
import { askOwner } from "../../../src/client/owner-ask.js";
import { OwnerClient } from "../../../src/client/owner.js";
import {
  checkDealCertificate,
  dealCertificate,
  GuardedSeat,
  roomState,
  seatFiles,
  setMandate,
  signDeal,
} from "../../../src/owner/index.js";
import { dealStatement, signStatement, TrestleError } from "../../../src/protocol/index.js";
import { launchChromium } from "../../support/browser.js";
import { buttonData, limitViolations, visibleText } from "../../support/chat-limits.js";
import { startFakeChatApi, type FakeChatApi, type RecordedRequest } from "../../support/fake-chat-api.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { twd } from "../../support/room-fixture.js";
import { closeRoomPage, roomPage, type RoomPage } from "../view/window-fixture.js";

const TELEGRAM = {
  TELEGRAM_BOT_TOKEN: "123:scripted-room",
  TELEGRAM_WEBHOOK_SECRET: "scripted-room-secret",
  TELEGRAM_BOT_USERNAME: "trestle_room_bot",
  OUTBOX_DELAY_MS: "0",
};
const TAO_CHAT = 4_250_001;

let fake: FakeChatApi;
let relay: LocalRelay;
let browser: Browser;
let room: RoomPage | undefined;

beforeAll(async () => {
  fake = await startFakeChatApi();
  [relay, browser] = await Promise.all([
    startRelay({ vars: { ...TELEGRAM, TELEGRAM_API_BASE: `${fake.url}/telegram` } }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await closeRoomPage(room);
  await browser?.close();
  await relay?.dispose();
  await new Promise<void>((resolve) => fake?.server.close(() => resolve()));
});

let updateId = 7_000_000;

/** POSTs a Telegram update to the relay's webhook with the secret token header, as Telegram does; the webhook's JSON answer. */
async function telegram(update: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${relay.url}/hooks/telegram`, {
    method: "POST",
    body: JSON.stringify({ update_id: updateId++, ...update }),
    headers: {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": TELEGRAM.TELEGRAM_WEBHOOK_SECRET,
    },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const from = { id: TAO_CHAT, is_bot: false, first_name: "Tao", language_code: "en" };
const MATCH = `"chat_id":"${TAO_CHAT}"`;

/** The sendMessage requests the fake received for tao's chat, once there are at least `count`. */
async function sent(count: number): Promise<RecordedRequest[]> {
  await fetch(`${fake.url}/__control/wait?match=${encodeURIComponent(MATCH)}&count=${count}`);
  return (await (
    await fetch(`${fake.url}/__control/requests?match=${encodeURIComponent(MATCH)}`)
  ).json()) as RecordedRequest[];
}

describe("the scripted room", { timeout: 120_000 }, () => {
  it("goes ask → answer by a Telegram tap → offer → held accept → approved in the window → deal signed by both owners → certificate verified offline", async () => {
    room = await roomPage(browser, relay.url, "scripted", {
      overrides: { room: {}, seats: undefined },
      prepare: async (home, table, k) => {
        const fields = {
          table,
          seat: "bot-tao",
          owner: "tao",
          money: { currency: "TWD" as const, cap: 300000 },
          never_disclose: [],
          require_confirm: ["accept" as const],
          paused: false,
        };
        await setMandate(seatFiles(home, table, "bot-tao").mandate, k.tao, fields, { now: Date.now() });
      },
    });
    const { k, table } = room;
    const page: Page = room.page;

    // tao binds a Telegram account; the relay's outbox proves the channel with its first message.
    const owner = new OwnerClient(relay.url, k.tao);
    const { code } = await owner.bindCode("telegram", "en");
    await telegram({
      message: { message_id: 1, date: 1, from, chat: { id: TAO_CHAT, type: "private" }, text: `/start ${code}` },
    });
    await sent(1);
    // The owner's object records the delivery after the fake took it: wait until the channel reads as proven.
    while (!(await owner.channels()).has_proven_channel) await new Promise((resolve) => setTimeout(resolve, 50));

    // bot-tao asks; the question reaches Telegram with a button per choice; tao taps the second.
    const http = new HttpClient({ url: relay.url });
    const asking = askOwner(
      http,
      table,
      k.botTao,
      "bot-tao",
      {
        text: "Jenny's side may offer 2,500. Go up to 2,800?",
        choices: ["hold at 2,500", "go up to 2,800"],
        wait_ms: 60_000,
      },
      {
        clock: Date.now,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        poll_ms: 100,
      },
    );
    const question = (await sent(2)).at(-1)!.body as Record<string, any>;
    expect(visibleText("telegram", question)).toContain("Go up to 2,800?");
    const [, second] = buttonData("telegram", question);
    expect(second).toMatch(/^q1\.[A-Za-z0-9_-]{16}\.1$/);
    const tapped = await telegram({
      callback_query: {
        id: "cb-scripted-1",
        from,
        message: { message_id: 2, chat: { id: TAO_CHAT, type: "private" } },
        chat_instance: "x",
        data: second,
      },
    });
    expect(tapped).toMatchObject({
      method: "answerCallbackQuery",
      text: expect.stringContaining("Answered seat bot-tao's question"),
    });
    expect((await asking).answer).toMatchObject({ verified: false, via: "telegram", value: "go up to 2,800" });

    // bot-jenny offers; bot-tao's accept is held by tao's gate; tao approves it in the window; the seat sends it.
    const seat = new GuardedSeat({ client: room.bots, seat: "bot-tao", signer: k.botTao, home: room.home });
    const { seq } = await room.bots.submit(k.botJenny, "bot-jenny", {
      kind: "offer",
      terms: twd(280000, "the stroller, Saturday"),
    });
    const offer = (await seat.transcript()).entries.find((e) => e.seq === seq)!.leaf;
    const held = await seat.send({ kind: "accept", offer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(held).toBeInstanceOf(TrestleError);
    expect((held as TrestleError).code).toBe("E_HELD");
    const hash = String((held as TrestleError).details!.message_sha256);
    const gate = `#local .gate[data-hash="${hash}"]`;
    await page.click(`${gate}.held-pending button.approve`);
    await page.waitForSelector(`${gate}.held-approved`);
    await seat.sendHeld(hash);

    // Both owners sign the deal: tao through the seat's library path (trestle deal sign), jenny by her seat.
    await signDeal(seat, k.tao, offer);
    const deal = roomState(await seat.transcript()).room!.deals[offer]!.terms_sha256;
    const jennySig = await signStatement(k.jenny, "deal", dealStatement(table, deal));
    await room.bots.submit(k.botJenny, "bot-jenny", {
      kind: "deal_sign",
      offer,
      deal,
      owner_key: k.jenny.publicKeyText,
      owner_sig: jennySig,
    });

    // The certificate from the export holds offline, under the relay key alone, with both signatures.
    const relayKey = ((await (await fetch(`${relay.url}/tables/${table}/head`)).json()) as { relay: string }).relay;
    const certificate = JSON.parse(
      JSON.stringify(await dealCertificate(room.bots, { signer: k.tao, as: { owner: "tao" } }, offer)),
    );
    const check = await checkDealCertificate(certificate, relayKey);
    expect(check.ok, JSON.stringify(check)).toBe(true);
    expect(certificate.status).toBe("done");
    expect(certificate.signatures.map((s: { owner: string }) => s.owner).sort()).toEqual(["jenny", "tao"]);

    // Every message Telegram received is a sendMessage within its published limits.
    const all = await sent(2);
    for (const request of all) {
      expect(request.path).toMatch(/\/bot[^/]+\/sendMessage$/);
      expect(limitViolations("telegram", request.body as Record<string, unknown>)).toEqual([]);
    }
  });
});
