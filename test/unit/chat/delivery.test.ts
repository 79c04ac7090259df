/**
 * A failed delivery's detail is shown to owners (trestle channels), so it never carries the relay's
 * credentials, even when the error repeats the request URL that holds Telegram's bot token. A send
 * that gets no answer gives up in time, as a retryable failure that may have reached the platform;
 * so does a LINE reply, which would otherwise hold the queue of LINE events behind it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendTo, type ConnectedPlatforms } from "../../../src/chat/send.js";
import { chatPlatforms } from "../../../durable-objects/settings.js";
import { replyLine } from "../../../src/chat/platforms/line.js";
import type { ChatPlatform } from "../../../src/protocol/index.js";

const TOKEN = "123456:AAE-relay-operators-secret-token";
const MESSAGE = { title: "t", lines: ["x"], actions: [] };

/** A proxy that answers every request with an error page naming the path it was asked for (as Express's default 404 does). */
const echo = createServer((req, res) => {
  res.writeHead(404, { "content-type": "text/plain" });
  res.end(`Cannot ${req.method} ${req.url} (authorization: ${req.headers.authorization ?? "none"})`);
});
/** A platform that takes every request and never answers. */
const silent = createServer(() => undefined);
let base: string;
let silentBase: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([echo, silent].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

function envFor(apiBase: string): ConnectedPlatforms {
  return chatPlatforms({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_BASE: apiBase,
    LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
    LINE_API_BASE: apiBase,
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_BASE: apiBase,
  });
}

describe("sendTo", () => {
  describe("when the API base is not a URL, so the fetch error repeats the request URL", () => {
    it("records the failure without the bot token", async () => {
      const result = await sendTo(envFor("api.telegram.example"), "telegram", "5551234", MESSAGE, "key");
      expect(result).toMatchObject({ ok: false, reason: "network" });
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      expect(JSON.stringify(result)).toContain("<secret>");
    });
  });

  describe("when a proxy's error page repeats the request", () => {
    it.each(["telegram", "line", "discord"] as ChatPlatform[])(
      "records %s's failure without the token",
      async (platform) => {
        const result = await sendTo(envFor(base), platform, "5551234", MESSAGE, "key");
        expect(result).toMatchObject({ ok: false, status: 404, reason: "bad_request" });
        expect(JSON.stringify(result)).not.toContain(TOKEN);
      },
    );
  });

  describe("when the platform never answers", () => {
    it.each(["telegram", "line", "discord"] as ChatPlatform[])(
      "gives up on %s after the timeout: a network failure to retry, which may have arrived",
      async (platform) => {
        const result = await sendTo(envFor(silentBase), platform, "5551234", MESSAGE, "key", 50);
        expect(result).toEqual({
          ok: false,
          status: null,
          reason: "network",
          detail: "no answer in time",
          retry: true,
          maybeDelivered: true,
        });
      },
    );
  });
});

describe("replyLine", () => {
  describe("when LINE never answers", () => {
    it("gives up after the timeout as a network failure, so the next event is answered", async () => {
      const result = await replyLine(
        { LINE_CHANNEL_ACCESS_TOKEN: TOKEN, LINE_API_BASE: silentBase },
        "reply-token",
        "Paused t-1 (entry 7).",
        50,
      );
      expect(result).toEqual({
        ok: false,
        status: null,
        reason: "network",
        detail: "no answer in time",
        retry: true,
        maybeDelivered: true,
      });
    });
  });
});
