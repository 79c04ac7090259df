/** What the owner does with a new bind code on each platform (shown by `trestle bind`). */
import type { ChatEnv } from "../../src/chat/config.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";

/** One line telling the owner where to send `code`. */
export function sendInstructions(env: ChatEnv, platform: ChatPlatform, code: string): string {
  switch (platform) {
    case "telegram":
      return env.TELEGRAM_BOT_USERNAME
        ? `Open https://t.me/${env.TELEGRAM_BOT_USERNAME}?start=${code.replace("-", "")} or send "/start ${code}" to @${env.TELEGRAM_BOT_USERNAME} within 10 minutes.`
        : `Send "/start ${code}" to the relay's Telegram bot within 10 minutes.`;
    case "line":
      return `Send "${code}" to the relay's LINE official account within 10 minutes.`;
    case "discord":
      return `Use "/bind code:${code}" with the relay's Discord app (in a DM with it, or a channel it can post to) within 10 minutes.`;
  }
}
