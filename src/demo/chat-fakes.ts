/**
 * The chat apps the market demo plays its groups on (docs/CHAT-APPS.md "Groups"): a loopback stand-in
 * for the Telegram, LINE and Discord APIs that takes every message the relay posts and remembers it
 * by chat, and the platforms' side of the webhooks, each request signed exactly as that platform
 * signs it (Telegram's secret-token header, LINE's base64 HMAC-SHA256 of the raw body, Discord's
 * Ed25519 over timestamp and body). The relay reaches the stand-in through the settings
 * `demoChatVars` gives it; the demo's secrets are fixed and loopback-only, never a real bot's.
 */
import { createHmac, createPrivateKey, createPublicKey, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PKCS8_PREFIX } from "../protocol/signing/crypto.js";
import { DemoError } from "./errors.js";

/** The demo bot's username on Telegram (a group addresses its commands to it). */
export const DEMO_BOT = "trestle_demo_bot";
const TELEGRAM_SECRET = "trestle-demo-telegram-webhook-secret";
const LINE_SECRET = "trestle-demo-line-channel-secret";
const DISCORD_APPLICATION = "1000000000000000001";
const DISCORD_KEY = createPrivateKey({
  key: Buffer.concat([Buffer.from(PKCS8_PREFIX), Buffer.alloc(32, 7)]),
  format: "der",
  type: "pkcs8",
});
const DISCORD_PUBLIC_HEX = createPublicKey(DISCORD_KEY)
  .export({ format: "der", type: "spki" })
  .subarray(-32)
  .toString("hex");

/** The relay settings that make its chat apps the stand-in listening on `port` (wrangler --var, or a test relay's vars). */
export function demoChatVars(port: number): Record<string, string> {
  const base = `http://127.0.0.1:${port}`;
  return {
    TELEGRAM_BOT_TOKEN: "1000:trestle-demo",
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: DEMO_BOT,
    TELEGRAM_API_BASE: `${base}/telegram`,
    LINE_CHANNEL_ACCESS_TOKEN: "trestle-demo-line-token",
    LINE_CHANNEL_SECRET: LINE_SECRET,
    LINE_API_BASE: `${base}/line`,
    DISCORD_BOT_TOKEN: "trestle-demo-discord-token",
    DISCORD_PUBLIC_KEY: DISCORD_PUBLIC_HEX,
    DISCORD_APPLICATION_ID: DISCORD_APPLICATION,
    DISCORD_API_BASE: `${base}/discord`,
  };
}

/** One message the relay posted: the chat it went to and its text as the platform got it. */
export interface PostedMessage {
  platform: "telegram" | "line" | "discord";
  chat: string;
  text: string;
}

/** The stand-in's server and what it was sent. */
export class ChatFakes {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    /** Every message posted, oldest first. */
    readonly posted: PostedMessage[],
  ) {}

  /** Starts the stand-in on 127.0.0.1 (`port`, or a free one). */
  static async start(port = 0): Promise<ChatFakes> {
    const posted: PostedMessage[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Uint8Array) => (body += new TextDecoder().decode(d)));
      req.on("end", () => {
        const message = postedOf(req.url ?? "", body);
        if (message) posted.push(message);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify(
            req.url?.startsWith("/telegram")
              ? { ok: true, result: {} }
              : req.url?.startsWith("/discord")
                ? { id: String(posted.length) }
                : {},
          ),
        );
      });
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    return new ChatFakes(server, (server.address() as AddressInfo).port, posted);
  }

  /** The messages posted to `chat` on `platform`, oldest first. */
  to(platform: PostedMessage["platform"], chat: string): string[] {
    return this.posted.filter((m) => m.platform === platform && m.chat === chat).map((m) => m.text);
  }

  /** Waits until `ready()` holds, looking every 200 ms for at most `ms`; whether it held. */
  async until(ready: () => boolean, ms: number): Promise<boolean> {
    for (let waited = 0; waited < ms; waited += 200) {
      if (ready()) return true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return ready();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The message a request posts, by its platform's API path and body; null for anything else. */
function postedOf(url: string, body: string): PostedMessage | null {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (/^\/telegram\/bot[^/]+\/sendMessage$/.test(url))
    return {
      platform: "telegram",
      chat: String(json.chat_id),
      text: String(json.text)
        .replace(/<[^>]*>/g, "")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&"),
    };
  if (url === "/line/v2/bot/message/push")
    return {
      platform: "line",
      chat: String(json.to),
      text: String((json.messages as { text?: string }[])[0]?.text ?? ""),
    };
  const discord = /^\/discord\/channels\/(\d+)\/messages$/.exec(url);
  if (discord)
    return {
      platform: "discord",
      chat: discord[1]!,
      text: String(json.content).replace(/\*\*/g, "").replace(/\\(.)/g, "$1"),
    };
  return null;
}

/** Where a webhook goes, and the platforms' signatures on it. */
export class ChatWebhooks {
  private update = 1;
  private event = 1;
  private interaction = 1;
  constructor(private readonly relay: string) {}

  /** A Telegram text message from user `from` in `chat` (a supergroup when it is negative), with the secret token; the webhook's answer. */
  telegram(from: number, text: string, chat = from): Promise<Record<string, unknown>> {
    const update = {
      update_id: this.update++,
      message: {
        message_id: 1,
        date: 1,
        from: { id: from, is_bot: false, first_name: `user${from}` },
        chat: { id: chat, type: chat < 0 ? "supergroup" : "private" },
        text,
      },
    };
    return this.post("telegram", JSON.stringify(update), { "x-telegram-bot-api-secret-token": TELEGRAM_SECRET });
  }

  /** A LINE text message from `userId`, in group `group` or privately, signed with the channel secret. */
  line(userId: string, text: string, group?: string): Promise<Record<string, unknown>> {
    const id = this.event++;
    const source = group === undefined ? { type: "user", userId } : { type: "group", groupId: group, userId };
    const body = JSON.stringify({
      destination: "Udemo",
      events: [
        {
          type: "message",
          webhookEventId: `01DEMO${id}`,
          deliveryContext: { isRedelivery: false },
          timestamp: 1,
          replyToken: `demo-reply-${id}`,
          source,
          mode: "active",
          message: { type: "text", id: String(id), text },
        },
      ],
    });
    return this.post("line", body, {
      "x-line-signature": createHmac("sha256", LINE_SECRET).update(body).digest("base64"),
    });
  }

  /** A Discord slash command `name` by `user` in `channel` (a server's, or a DM's without `guild`), with named string options, signed by the application key. */
  discord(
    user: string,
    channel: string,
    name: string,
    options: Record<string, string>,
    guild?: string,
  ): Promise<Record<string, unknown>> {
    const interaction = {
      id: String(this.interaction++),
      application_id: DISCORD_APPLICATION,
      type: 2,
      token: "demo",
      version: 1,
      channel_id: channel,
      ...(guild === undefined
        ? { user: { id: user, username: `user${user}` } }
        : { guild_id: guild, member: { user: { id: user, username: `user${user}` } } }),
      data: {
        id: "1",
        name,
        type: 1,
        options: Object.entries(options).map(([n, value]) => ({ name: n, type: 3, value })),
      },
    };
    const body = JSON.stringify(interaction);
    const timestamp = String(Math.floor(Date.now() / 1000));
    return this.post("discord", body, {
      "x-signature-ed25519": sign(null, Buffer.from(timestamp + body), DISCORD_KEY).toString("hex"),
      "x-signature-timestamp": timestamp,
    });
  }

  private async post(
    platform: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const res = await fetch(`${this.relay}/hooks/${platform}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    });
    if (res.status !== 200)
      throw new DemoError(`the relay answered ${platform}'s webhook ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  }
}
