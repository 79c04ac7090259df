/**
 * The loopback fake (test/support/fake-chat-api.ts) takes a message text exactly up to its
 * platform's limit, counted as that platform counts, and refuses one unit more with the platform's
 * own error, as the real APIs do: so a workers test that sends through it catches a message the
 * platform would reject.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeChatApi, type FakeChatApi } from "../../support/fake-chat-api.js";

let fake: FakeChatApi;
beforeAll(async () => {
  fake = await startFakeChatApi();
});
afterAll(async () => {
  await new Promise<void>((resolve) => fake.server.close(() => resolve()));
});

async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const telegram = (text: string) => post("/telegram/botTOKEN/sendMessage", { chat_id: "1", text, parse_mode: "HTML" });
const line = (text: string, n: number) =>
  post("/line/v2/bot/message/push", { to: `U${n}`, messages: [{ type: "text", text }] });
const discord = (content: string) => post("/discord/channels/1/messages", { content });

describe("the fake takes a text at its platform's limit", () => {
  it("on Telegram 4096 characters after entities parsing, however long the HTML, an emoji counting once", async () => {
    expect((await telegram(`<b>T</b>\n${"&lt;".repeat(4094)}`)).status).toBe(200);
    expect((await telegram("😀".repeat(4096))).status).toBe(200);
  });

  it("on LINE 5000 UTF-16 code units, an emoji counting twice", async () => {
    expect((await line("😀".repeat(2500), 1)).status).toBe(200);
  });

  it("on Discord 2000 characters of content as sent, an emoji counting once", async () => {
    expect((await discord("😀".repeat(2000))).status).toBe(200);
    expect((await discord("\\*".repeat(1000))).status).toBe(200);
  });
});

describe("when a text is one unit over", () => {
  it("Telegram answers 400 Bad Request: message is too long", async () => {
    expect(await telegram(`<b>T</b>\n${"&lt;".repeat(4095)}`)).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: message is too long" },
    });
    expect((await telegram("😀".repeat(4097))).status).toBe(400);
  });

  it("LINE answers 400 naming the text that is too long", async () => {
    expect(await line(`${"😀".repeat(2500)}x`, 2)).toEqual({
      status: 400,
      body: {
        message: "The request body has 1 error(s)",
        details: [{ message: "Length must be between 0 and 5000", property: "messages[0].text" }],
      },
    });
  });

  it("Discord answers 400 Invalid Form Body, content must be 2000 or fewer in length", async () => {
    expect(await discord(`${"\\*".repeat(1000)}x`)).toEqual({
      status: 400,
      body: {
        message: "Invalid Form Body",
        code: 50035,
        errors: {
          content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] },
        },
      },
    });
  });
});
