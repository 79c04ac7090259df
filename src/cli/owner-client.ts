/**
 * The owner's client for the CLI (`bind`, `unbind`, `channels`, `pause`, `resume`, `delete`): the owner key from
 * --owner / --owner-key, and the relay pinned first (trust on first use), as every other command
 * pins it before talking to it.
 */
import { openOwner, type OwnerClient } from "../client/node.js";
import { ChatPlatformSchema, chatPlatformsInWords, type ChatPlatform, type Signer } from "../protocol/index.js";
import type { Context } from "./context.js";
import { UsageError } from "./exit.js";

/** The owner's name, their key's signer, and an OwnerClient signing with that key, for the pinned relay. */
export async function ownerClientOf(ctx: Context): Promise<{ owner: string; signer: Signer; client: OwnerClient }> {
  const { owner, key } = await ctx.owner();
  const client = await openOwner({
    relay: ctx.http(),
    signer: key.signer,
    home: ctx.home,
    clock: ctx.io.clock,
    onFirstUse: ctx.firstUse,
  });
  return { owner, signer: key.signer, client };
}

/** A chat platform named on the command line. */
export function platformArg(text: string): ChatPlatform {
  const parsed = ChatPlatformSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`"${text}" is not a chat app: use ${chatPlatformsInWords("id", "or")}`);
  return parsed.data;
}
