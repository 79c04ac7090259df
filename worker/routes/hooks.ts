/**
 * Chat-app webhooks (docs/SPEC.md §11.5): Telegram, LINE, Discord. Each checks its platform's own
 * signature over the raw bytes before parsing anything; unsigned or mis-signed requests get 401
 * (E_AUTH) and change nothing.
 */
import { Hono } from "hono";
import type { Env } from "../../durable-objects/env.js";
import { readBytes } from "../http.js";
import { discordHook } from "../chat/discord.js";
import { lineHook } from "../chat/line.js";
import { telegramHook } from "../chat/telegram.js";

/** The /hooks routes. */
export const hooks = new Hono<{ Bindings: Env }>();

hooks.post("/telegram", async (c) => c.json(await telegramHook(c.env, c.req.header("x-telegram-bot-api-secret-token") ?? null, await readBytes(c))));

hooks.post("/line", async (c) => {
  await lineHook(c.env, c.req.header("x-line-signature") ?? null, await readBytes(c));
  return c.json({});
});

hooks.post("/discord", async (c) => {
  const headers = { signature: c.req.header("x-signature-ed25519") ?? null, timestamp: c.req.header("x-signature-timestamp") ?? null };
  return c.json(await discordHook(c.env, headers, await readBytes(c), Date.now()));
});
