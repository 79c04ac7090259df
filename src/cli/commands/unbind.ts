/** `trestle unbind <platform> <account>`: removes one bound chat account (signed with the owner key). */
import { AccountIdSchema, ChatPlatformSchema } from "../../protocol/index.js";
import { OWNER_FLAGS, positionals } from "../args.js";
import { UsageError } from "../exit.js";
import { ownerClientOf, platformArg } from "../owner-client.js";
import type { Command } from "./command.js";

/** `unbind`: the account loses its command rights, then its deliveries; running it again changes nothing. */
export const unbind: Command = {
  name: "unbind",
  summary: "remove a bound chat account (trestle channels lists them)",
  args: `<${ChatPlatformSchema.options.join("|")}> <account>`,
  flags: { ...OWNER_FLAGS },
  async run(ctx) {
    const [name, account] = positionals(ctx.args, ["platform", "account"]);
    const platform = platformArg(name!);
    if (!AccountIdSchema.safeParse(account).success)
      throw new UsageError(`"${account}" is not a chat account id (trestle channels lists them)`);
    const { owner, client } = await ownerClientOf(ctx);
    const result = await client.unbind(platform, account!);
    ctx.out.result(
      result.removed
        ? `unbound ${platform} account ${account} from owner ${owner}`
        : `${platform} account ${account} was not bound to owner ${owner}; nothing changed`,
      { owner, ...result },
    );
  },
};
