/**
 * Discord (interactions + REST): markdown-escaped content within 2000 characters, button
 * components in rows of 5 (custom_id within 100 characters), channel messages sent with an enforced nonce so a
 * send retried within a few minutes is not posted twice, and interaction parsing. POST
 * /hooks/discord is authenticated by Ed25519 over X-Signature-Timestamp + raw body with the
 * application's public key. PING is answered with PONG before anything else is touched (Discord
 * wants an answer within 3 seconds); a timestamp more than 5 minutes off is refused, and each
 * interaction id is handled once, so a captured request cannot be replayed.
 */
import { z } from "zod";
import { fromHex, fromUtf8, utf8, concatBytes } from "../../protocol/encoding/bytes.js";
import { ed25519 } from "../../protocol/signing/crypto.js";
import { TrestleError } from "../../protocol/errors.js";
import { LIMITS } from "../../protocol/limits/limits.js";
import { apiBase } from "../config.js";
import {
  bodyText,
  failureOf,
  goneFailure,
  networkFailure,
  notConfigured,
  safeJson,
  type DeliveryResult,
} from "../delivery.js";
import { negotiateLang } from "../i18n.js";
import { normalizeCode, parseTap, type Command, type Inbound } from "../inbound.js";
import { ownerCommandOf } from "../owner-command.js";
import { GROUP_VERBS, groupCommandOf, type GroupVerb } from "../group-command.js";
import { codePoints, fitRendered, type ChatAction, type ChatMessage } from "../message.js";
import type { Connected, HookContext, HookRequest, Platform } from "./platform.js";

/** Discord's settings: the bot token (a secret), the application's public key and id, and the API base (vars). */
export const DiscordSettingsSchema = z.object({
  DISCORD_BOT_TOKEN: z.string().optional(),
  DISCORD_PUBLIC_KEY: z.string().optional(),
  DISCORD_APPLICATION_ID: z.string().optional(),
  DISCORD_API_BASE: z.string().optional(),
});
export type DiscordSettings = z.infer<typeof DiscordSettingsSchema>;

/** The public REST API base, version 10. */
export const DISCORD_API_BASE = "https://discord.com/api/v10";

/**
 * Discord's limits (https://discord.com/developers/docs/resources/message#create-message and
 * https://discord.com/developers/docs/components/reference#button): message `content` up to 2000
 * characters (counted by discordContentChars; embeds, up to 6000 characters in total, are not
 * used); a button's `label` up to 80 and `custom_id` up to 100 characters, at most 5 buttons in an
 * action row; `nonce` up to 25.
 */
export const DISCORD_CONTENT_CHARS = 2000;
export const DISCORD_LABEL_CHARS = 80;
export const DISCORD_CUSTOM_ID_CHARS = 100;
export const DISCORD_NONCE_CHARS = 25;
/**
 * Posts to one channel (https://discord.com/developers/docs/topics/rate-limits): limits are per route
 * and per top-level resource (the channel), "should not be hard coded" and are read from each
 * answer's headers, with a 429 naming `retry_after` (honoured as a retry, sendDiscord), and a
 * global 50 requests a second per bot. The relay keeps to 5 posts in 5 seconds per channel, the
 * bucket Discord has long answered for creating messages in one channel.
 */
export const DISCORD_GROUP_PACE = { messages: 5, per_ms: 5_000 } as const;
/** Buttons in one action row, at most. */
export const DISCORD_ROW_BUTTONS = 5;
/** Button styles: Success (green) approves, Danger (red) rejects, Primary for a question's choices. */
const BUTTON_STYLE: Record<ChatAction["style"], number> = { approve: 3, reject: 4, choice: 1 };
/** Interaction response flag: only the person who acted sees the reply. */
export const EPHEMERAL = 64;

/** Escapes Discord markdown (emphasis, code, spoilers, quotes, headings, lists, masked links). */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\*_~`|>#\-[\]()]/g, "\\$&");
}

/**
 * The length Discord checks against DISCORD_CONTENT_CHARS: `content` as sent, markdown escapes
 * included (they are characters of the content), in Unicode code points, as Discord's API counts
 * strings (Python's `len`: an emoji is one, not two UTF-16 units).
 */
export function discordContentChars(content: string): number {
  return codePoints(content);
}

/** Whether `message` fits the content limit, counted as Discord counts, as formatDiscord renders it, uncut. */
export function fitsDiscord(message: ChatMessage): boolean {
  return discordContentChars(renderer(message.title)(message.lines.join("\n"))) <= DISCORD_CONTENT_CHARS;
}

/** The message fields: bold title, escaped lines, a row of buttons; mentions never ping. */
export function formatDiscord(message: ChatMessage): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    content: fitRendered(message.lines.join("\n"), DISCORD_CONTENT_CHARS, renderer(message.title), discordContentChars),
    allowed_mentions: { parse: [] },
  };
  if (message.actions.length > 0) {
    const button = (a: ChatAction) => ({
      type: 2,
      style: BUTTON_STYLE[a.style],
      label: a.label.slice(0, DISCORD_LABEL_CHARS),
      custom_id: a.data.slice(0, DISCORD_CUSTOM_ID_CHARS),
    });
    const rows: ChatAction[][] = [];
    for (let i = 0; i < message.actions.length; i += DISCORD_ROW_BUTTONS)
      rows.push(message.actions.slice(i, i + DISCORD_ROW_BUTTONS));
    fields.components = rows.map((row) => ({ type: 1, components: row.map(button) }));
  }
  return fields;
}

function renderer(title: string): (body: string) => string {
  return (body) => `**${escapeDiscord(title)}**\n${escapeDiscord(body)}`;
}

/** An ephemeral interaction reply with escaped plain text. */
export function discordReply(text: string): Record<string, unknown> {
  return {
    type: 4,
    data: {
      content: fitRendered(text, DISCORD_CONTENT_CHARS, escapeDiscord, discordContentChars),
      flags: EPHEMERAL,
      allowed_mentions: { parse: [] },
    },
  };
}

/** Posts `message` to channel `channelId`, giving up when `signal` aborts, with `nonce` enforced so a repeat within a few minutes returns the first message. */
export async function sendDiscord(
  env: DiscordSettings,
  channelId: string,
  message: ChatMessage,
  nonce: string,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  if (!env.DISCORD_BOT_TOKEN) return notConfigured("DISCORD_BOT_TOKEN");
  const url = `${apiBase(env.DISCORD_API_BASE, DISCORD_API_BASE)}/channels/${channelId}/messages`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bot ${env.DISCORD_BOT_TOKEN}` },
      body: JSON.stringify({
        ...formatDiscord(message),
        nonce: nonce.slice(0, DISCORD_NONCE_CHARS),
        enforce_nonce: true,
      }),
      signal,
    });
  } catch (error) {
    return networkFailure(error);
  }
  const text = await bodyText(res);
  if (res.ok) return { ok: true, status: res.status };
  const parsed = DiscordErrorSchema.safeParse(safeJson(text));
  // JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json): 50001 Missing Access, 10003 Unknown Channel.
  const code = parsed.success ? parsed.data.code : undefined;
  if ((res.status === 403 && code === 50001) || (res.status === 404 && code === 10003))
    return goneFailure(res.status, "removed", parsed.success ? (parsed.data.message ?? text) : text);
  const retryAfter = parsed.success ? parsed.data.retry_after : undefined;
  return failureOf(
    res.status,
    parsed.success ? (parsed.data.message ?? text) : text,
    retryAfter === undefined ? undefined : Math.ceil(retryAfter * 1000),
  );
}

const DiscordErrorSchema = z.looseObject({
  message: z.string().optional(),
  code: z.int().optional(),
  retry_after: z.number().min(0).max(86_400).optional(),
});

/** True iff `signature` (hex) is the application key's Ed25519 signature over timestamp + body. */
export async function verifyDiscordSignature(
  publicKeyHex: string,
  timestamp: string | null,
  body: Uint8Array,
  signature: string | null,
): Promise<boolean> {
  if (!timestamp || !signature || !/^[0-9a-f]{128}$/i.test(signature) || !/^[0-9a-f]{64}$/i.test(publicKeyHex))
    return false;
  return (await ed25519()).verify(fromHex(publicKeyHex), concatBytes(utf8(timestamp), body), fromHex(signature));
}

const DiscordUser = z.looseObject({ id: z.string().regex(/^[0-9]{1,20}$/), username: z.string().max(64).optional() });
/** A string option is at most 6000 characters (Discord's limit for `max_length`); what reads it checks it further. */
const OptionSchema = z.looseObject({
  name: z.string().max(32),
  value: z.union([z.string().max(6000), z.number(), z.boolean()]).optional(),
});

/** The parts of an interaction this relay reads. */
export const DiscordInteractionSchema = z.looseObject({
  id: z.string().regex(/^[0-9]{1,20}$/),
  application_id: z.string().regex(/^[0-9]{1,20}$/),
  type: z.int(),
  data: z
    .looseObject({
      name: z.string().max(32).optional(),
      custom_id: z.string().max(100).optional(),
      options: z.array(OptionSchema).max(25).optional(),
    })
    .optional(),
  channel_id: z
    .string()
    .regex(/^[0-9]{1,20}$/)
    .optional(),
  guild_id: z
    .string()
    .regex(/^[0-9]{1,20}$/)
    .optional(),
  member: z.looseObject({ user: DiscordUser }).optional(),
  user: DiscordUser.optional(),
  locale: z.string().max(16).optional(),
});
export type DiscordInteraction = z.infer<typeof DiscordInteractionSchema>;

/** Interaction types (Discord API): PING, APPLICATION_COMMAND, MESSAGE_COMPONENT. */
export const INTERACTION = { PING: 1, COMMAND: 2, COMPONENT: 3 } as const;

const LISTING_OPTIONS = [
  { type: 3, name: "item", description: "What it is, in your words", required: true, max_length: 2000 },
  {
    type: 3,
    name: "price",
    description: "A price, e.g. 2800 TWD (what you ask at least, or pay at most)",
    required: false,
    max_length: 32,
  },
  { type: 3, name: "category", description: "One of the market's categories", required: false, max_length: 32 },
];

/** A market's group commands (group-command.ts), as slash commands in the channel the market is bound to. */
const GROUP_COMMANDS: Record<GroupVerb, { description: string; options?: readonly object[] }> = {
  "/sell": {
    description: "List something you offer in this channel's market (relay-attested, unverified)",
    options: LISTING_OPTIONS,
  },
  "/want": {
    description: "List something you want in this channel's market (relay-attested, unverified)",
    options: LISTING_OPTIONS,
  },
  "/listings": { description: "The market's live listings, shown to you alone" },
  "/mine": { description: "Your live listings in this channel's market, shown to you alone" },
  "/withdraw": {
    description: "Take one of your listings down",
    options: [
      {
        type: 3,
        name: "listing",
        description: "Its number, as /mine shows it, e.g. #12",
        required: true,
        max_length: 16,
      },
    ],
  },
  "/join": { description: "How to post in this channel's market, shown to you alone" },
};

/** The slash commands to register for the application (PUT /applications/{id}/commands). */
export const DISCORD_COMMANDS = [
  {
    name: "bind",
    description: "Bind this account with a code from `trestle bind discord`",
    options: [{ type: 3, name: "code", description: "The code", required: true }],
  },
  { name: "status", description: "Your channels and tables" },
  { name: "tables", description: "Your tables" },
  {
    name: "pause",
    description: "Pause a table where you own a seat",
    options: [{ type: 3, name: "table", description: "Table id", required: true }],
  },
  {
    name: "resume",
    description: "Lift your own pause on a table",
    options: [{ type: 3, name: "table", description: "Table id", required: true }],
  },
  { name: "unbind", description: "Stop notifications to this account" },
  { name: "help", description: "How to use trestle here" },
  {
    name: "answer",
    description: "Answer your seat's question (the code is in the question's message)",
    options: [
      { type: 3, name: "code", description: "The question's code", required: true, max_length: 16 },
      { type: 3, name: "text", description: "Your answer", required: true, max_length: 1000 },
    ],
  },
  {
    name: "instruct",
    description: "Tell one of your seats what to do",
    options: [
      { type: 3, name: "seat", description: "Seat name", required: true, max_length: 64 },
      { type: 3, name: "text", description: "The instruction", required: true, max_length: 1000 },
      {
        type: 3,
        name: "table",
        description: "Table id, when you have more than one open table",
        required: false,
        max_length: 64,
      },
    ],
  },
  ...GROUP_VERBS.map((verb) => ({ name: verb.slice(1), ...GROUP_COMMANDS[verb] })),
] as const;

/** What an interaction asks for; interactions for another application are ignored. */
export function parseDiscordInteraction(interaction: DiscordInteraction, applicationId: string | undefined): Inbound {
  if (applicationId !== undefined && interaction.application_id !== applicationId)
    return { kind: "ignored", reason: "addressed to another application" };
  const user = interaction.member?.user ?? interaction.user;
  if (!user || !interaction.channel_id) return { kind: "ignored", reason: "no user or channel" };
  const sender = {
    platform: "discord" as const,
    account: user.id,
    chat: interaction.channel_id,
    // A server's channel is a group: every reply here is ephemeral, seen by the sender alone.
    group: interaction.guild_id === undefined ? null : interaction.channel_id,
    label: user.username ?? user.id,
    lang: interaction.locale ? negotiateLang(interaction.locale) : null,
    eventId: `discord:${interaction.id}`,
  };
  if (interaction.type === INTERACTION.COMPONENT)
    return { kind: "tap", sender, tap: parseTap(interaction.data?.custom_id) };
  if (interaction.type !== INTERACTION.COMMAND)
    return { kind: "ignored", reason: `interaction type ${interaction.type}` };
  const option = (name: string) => String(interaction.data?.options?.find((o) => o.name === name)?.value ?? "");
  const command =
    ownerCommandOf(interaction.data?.name, option) ??
    groupCommandOf(interaction.data?.name, option) ??
    commandOf(interaction.data?.name, String(interaction.data?.options?.[0]?.value ?? ""));
  return command ? { kind: "command", sender, command } : { kind: "ignored", reason: "unknown command" };
}

function commandOf(name: string | undefined, arg: string): Command | null {
  switch (name) {
    case "bind": {
      const code = normalizeCode(arg);
      return code ? { name: "bind", code } : { name: "help" };
    }
    case "pause":
    case "resume":
      return { name, table: /^[a-z0-9][a-z0-9._-]{2,63}$/.test(arg) ? arg : null };
    case "status":
    case "tables":
    case "unbind":
    case "help":
      return { name };
    default:
      return null;
  }
}

/** The interaction response for a raw body and its signature headers. */
export async function discordHook(
  env: DiscordSettings,
  request: HookRequest,
  context: HookContext,
): Promise<Record<string, unknown>> {
  const key = env.DISCORD_PUBLIC_KEY;
  const timestamp = request.header("x-signature-timestamp");
  if (!key || !(await verifyDiscordSignature(key, timestamp, request.body, request.header("x-signature-ed25519")))) {
    throw new TrestleError("E_AUTH", "the Discord signature is missing or wrong");
  }
  if (
    !/^[0-9]{1,12}$/.test(timestamp ?? "") ||
    Math.abs(request.now - Number(timestamp) * 1000) > LIMITS.auth_window_ms
  ) {
    throw new TrestleError("E_AUTH", "the Discord timestamp is outside the window");
  }
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8(request.body));
  } catch {
    throw new TrestleError("E_SCHEMA", "not a Discord interaction");
  }
  const parsed = DiscordInteractionSchema.safeParse(json);
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a Discord interaction");
  if (parsed.data.type === INTERACTION.PING) return { type: 1 };
  const reply = await context.handle(parseDiscordInteraction(parsed.data, env.DISCORD_APPLICATION_ID));
  return discordReply(reply ?? "…");
}

/** Discord in the registry (index.ts); the outbox's key becomes the message's enforced nonce. */
export const discord: Platform = {
  fits: fitsDiscord,
  groupPace: DISCORD_GROUP_PACE,
  settings: DiscordSettingsSchema.transform((env): Connected => ({
    configured: Boolean(env.DISCORD_BOT_TOKEN && env.DISCORD_PUBLIC_KEY),
    secrets: [env.DISCORD_BOT_TOKEN].filter((s) => s !== undefined),
    send: (chat, message, key, signal) => sendDiscord(env, chat, message, key, signal),
    instructions: (code) => `Use "/bind code:${code}" in a DM with the relay's Discord app within 10 minutes.`,
    groupInstructions: (code) =>
      `Add the relay's Discord app to the server, then use "/bind code:${code}" in the channel within 10 minutes.`,
    hook: (request, context) => discordHook(env, request, context),
  })),
};
