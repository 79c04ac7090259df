/** `trestle bind <platform>`: a one-time code that binds a chat account to the owner key. */
import { ChatPlatformSchema, chatPlatformsInWords, LangSchema } from "../../protocol/index.js";
import { OWNER_FLAGS, optional, positionals } from "../args.js";
import { UsageError } from "../exit.js";
import { ownerClientOf, platformArg } from "../owner-client.js";
import type { Command } from "./command.js";

/** `bind`: asks the relay for a code (signed with the owner key) and says what to send to which bot. */
export const bind: Command = {
  name: "bind",
  summary: `get a one-time code that binds a ${chatPlatformsInWords("name", "or")} account to your owner key`,
  args: `<${ChatPlatformSchema.options.join("|")}>`,
  flags: {
    ...OWNER_FLAGS,
    lang: {
      type: "string",
      value: "LANG",
      help: "language of that chat's notifications: en (default), zh-Hans, zh-Hant or ja",
    },
  },
  async run(ctx) {
    const [name] = positionals(ctx.args, ["platform"]);
    const platform = platformArg(name!);
    const lang = LangSchema.safeParse(optional(ctx.args, "lang") ?? "en");
    if (!lang.success) throw new UsageError("--lang must be en, zh-Hans, zh-Hant or ja");
    const { owner, client } = await ownerClientOf(ctx);
    const code = await client.bindCode(platform, lang.data);
    const c = ctx.out.c;
    ctx.out.result(
      [
        `bind code for ${platform}: ${c.bold(code.code)} (owner ${owner}; single use, valid until ${new Date(code.expires).toISOString()})`,
        code.send,
        c.dim(
          "Anyone who sends this code first gets the binding: keep it to yourself. The new channel shows in trestle channels,",
        ),
        c.dim("UNPROVEN until its first notification is delivered."),
      ],
      { owner, ...code, lang: lang.data },
    );
  },
};
