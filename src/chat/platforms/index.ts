/**
 * The chat platforms: the one record every other list is derived from (delivery, the webhook
 * route /hooks/:platform, settings, the `chat:<platform>` features, bind instructions). It is
 * typed against the protocol's list (ChatPlatformSchema), so a platform added there and missing
 * here, or here and not there, does not compile (docs/CHAT-APPS.md "Adding a platform").
 */
import { ChatPlatformSchema, type ChatPlatform } from "../../protocol/schemas/control.js";
import { discord } from "./discord.js";
import { line } from "./line.js";
import type { Platform } from "./platform.js";
import { telegram } from "./telegram.js";

/** Every chat platform by its protocol id. */
export const PLATFORMS: Readonly<Record<ChatPlatform, Platform>> = { telegram, line, discord };

/** A record of `f` over every platform, in the protocol's order. */
export function eachPlatform<T>(f: (platform: ChatPlatform, module: Platform) => T): Record<ChatPlatform, T> {
  return Object.fromEntries(
    ChatPlatformSchema.options.map((platform) => [platform, f(platform, PLATFORMS[platform])]),
  ) as Record<ChatPlatform, T>;
}
