/**
 * Binding a chat group to a market (docs/SPEC.md §5.15 "Groups", decision 0500), after the
 * directory redeemed the market's code in that group and reserved the group for the market: the
 * market's object appends the binding, signed by its creator's code request, and its group audience
 * learns of it through the durable notification hand-off (so the group's greeting survives a crash).
 * A refusal frees the group again. A reservation no binding followed (the relay died in between) is
 * found by asking the market, and freed, so the next code binds. A group the platform says the bot
 * can no longer post to (removed, left, migrated to a new id) shows so in the market's health.
 */
import { unwrap } from "../result.js";
import { t } from "../../src/chat/i18n.js";
import type { GroupGone, Sender } from "../../src/chat/inbound.js";
import { platformName } from "../../src/chat/render.js";
import { TrestleError } from "../../src/protocol/errors.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import type { Directory, GroupCodeRedeemed } from "./calls.js";
import { ownerObject, tableObject } from "../stubs.js";
import { groupAudience } from "../../src/protocol/schemas/notify.js";

/** Binds the group `sender` wrote in (`sender.group`) to the market of `redeemed`; the reply, in `lang`, goes to the sender alone. */
export async function bindGroupHere(
  env: Env,
  dir: Directory,
  sender: Sender & { group: string },
  redeemed: GroupCodeRedeemed,
  lang: Lang,
): Promise<string> {
  try {
    const { seq } = unwrap(await tableObject(env, redeemed.market).bindGroup(redeemed.request, sender.group));
    return t(lang, "group.reply.bound", { platform: platformName(sender.platform), table: redeemed.market, seq });
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    unwrap(await dir.releaseGroup(sender.platform, sender.group, redeemed.market));
    return t(lang, "group.reply.bind_failed", { message: `${error.code}: ${error.message}` });
  }
}

/** Frees `group` if `market` holds it in the directory but has no binding of it (gone, deleted, or the binding never written); true when it did. */
export async function freeStaleGroup(
  env: Env,
  dir: Directory,
  platform: ChatPlatform,
  group: string,
  market: string,
): Promise<boolean> {
  let bound: boolean;
  try {
    bound = unwrap(await tableObject(env, market).hasGroup(platform, group));
  } catch (error) {
    if (
      !(error instanceof TrestleError) ||
      !["E_TABLE_NOT_FOUND", "E_TABLE_DELETED", "E_NOT_ALLOWED"].includes(error.code)
    )
      throw error;
    bound = false;
  }
  return !bound && unwrap(await dir.releaseGroup(platform, group, market));
}

/** The platform said the bot can no longer post to a group: the market it is bound to (if any) hears of it, and its health shows it. Nothing is answered. */
export async function groupGoneHere(env: Env, dir: Directory, gone: GroupGone): Promise<null> {
  const market = unwrap(await dir.groupMarket(gone.platform, gone.group));
  if (market === null) return null;
  const audience = groupAudience(market);
  unwrap(await ownerObject(env, audience).groupGone(audience, gone.platform, gone.group, gone.reason, gone.detail));
  return null;
}
