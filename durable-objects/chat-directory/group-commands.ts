/**
 * A member's commands in a market's chat group (docs/CHAT-APPS.md "Groups", decision 0500): the
 * group must be bound to a market here (else a bound account hears so, privately, and anyone else
 * nothing), the command within the member's and the group's flood limits, and the account's bound
 * owner key a member of that market. `/sell` and `/want` post a relay-attested listing, never a
 * commitment; `/withdraw #n` takes one of the member's group listings down; `/listings` and `/mine`
 * read the live ones; `/join` says how to take part. Every answer is the sender's alone (decision
 * 0501); what the group itself sees goes through the market's group outbox.
 */
import { unwrap } from "../result.js";
import { t } from "../../src/chat/i18n.js";
import type { GroupCommand } from "../../src/chat/group-command.js";
import type { Sender } from "../../src/chat/inbound.js";
import { parseTypedListing } from "../../src/chat/listing-text.js";
import { listingLine, listingValues } from "../../src/chat/render-group.js";
import { platformName, shortKey } from "../../src/chat/render.js";
import { waitText } from "../../src/protocol/limits/rate-limited.js";
import { TrestleError } from "../../src/protocol/errors.js";
import type { ListingView } from "../../src/protocol/schemas/market.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import type { Directory } from "./calls.js";
import { tableObject } from "../stubs.js";

/** Listings a `/listings` or `/mine` answer shows, newest first. */
const BOARD_LINES = 10;

/** The answer to `cmd`, sent in `sender.group` by an account bound to `owners` (oldest first), in `lang`; null to say nothing. */
export async function groupCommand(
  env: Env,
  dir: Directory,
  sender: InGroup,
  owners: readonly string[],
  lang: Lang,
  cmd: GroupCommand,
): Promise<string | null> {
  const admitted = await admittedCommand(dir, sender, lang);
  if (admitted.reply !== null) return admitted.reply;
  const market = admitted.market;
  if (cmd.verb === "/join") return t(lang, "group.reply.join", { table: market, platform: sender.platform });
  const table = tableObject(env, market);
  const { owner, categories } = unwrap(await table.groupMember([...owners]));
  if (owner === null) return t(lang, "group.reply.not_member", { key: shortKey(owners[0]!), table: market });
  const where = { owner, via: sender.platform, group: sender.group };
  switch (cmd.verb) {
    case "/sell":
    case "/want": {
      const side = cmd.verb === "/sell" ? "offer" : "want";
      const listing = parseTypedListing(cmd.arg, side, categories);
      const usage = { command: cmd.verb.slice(1), category: categories[0]!, categories: categories.join(", ") };
      if (!listing) return t(lang, "group.reply.usage_listing", usage);
      try {
        const { seq } = unwrap(await table.groupListing({ ...where, side, listing }));
        const values = listingValues(lang, { seq, side, ...listing, owner, fromGroup: true });
        return t(lang, "group.reply.listed", { ...values, table: market, via: platformName(sender.platform) });
      } catch (error) {
        return t(lang, "group.reply.list_failed", { message: refusal(error) });
      }
    }
    case "/withdraw": {
      const seq = /^#?([1-9][0-9]{0,14})$/.exec(cmd.arg)?.[1];
      if (seq === undefined) return t(lang, "group.reply.usage_withdraw");
      try {
        const done = unwrap(await table.groupUnlist({ ...where, seq: Number(seq) }));
        return t(lang, "group.reply.withdrawn", { seq, table: market, entry: done.seq });
      } catch (error) {
        return t(lang, "group.reply.withdraw_failed", { seq, message: refusal(error) });
      }
    }
    case "/listings":
    case "/mine": {
      const board = unwrap(await table.groupBoard(cmd.verb === "/mine" ? owner : null, BOARD_LINES));
      const head = t(lang, cmd.verb === "/mine" ? "group.reply.mine_head" : "group.reply.listings_head", {
        table: market,
      });
      const lines = board.items.map((l) => listingLine(lang, shown(l)));
      const more =
        board.total > board.items.length
          ? [t(lang, "group.reply.more", { count: board.total - board.items.length })]
          : [];
      return [head, ...(lines.length === 0 ? [t(lang, "group.reply.none")] : lines), ...more].join("\n");
    }
  }
}

/** `/join` from an account bound to nobody: how to take part, privately; nothing in a group that is no market's. */
export async function joinHint(dir: Directory, sender: InGroup, lang: Lang): Promise<string | null> {
  const admitted = await admittedCommand(dir, sender, lang);
  if (admitted.market === null) return null;
  return admitted.reply ?? t(lang, "group.reply.join", { table: admitted.market, platform: sender.platform });
}

/** A sender in a group. */
type InGroup = Sender & { group: string };

/** The market `sender.group` is bound to and null, once the command is counted within the flood limits; else the reply that refuses it (and the market, or null for a group that is no market's). */
async function admittedCommand(
  dir: Directory,
  sender: InGroup,
  lang: Lang,
): Promise<{ market: string; reply: null } | { market: string | null; reply: string }> {
  const market = unwrap(await dir.groupMarket(sender.platform, sender.group));
  if (market === null) return { market, reply: t(lang, "group.reply.unbound_group") };
  const flood = unwrap(await dir.countGroupCommand(sender.platform, sender.group, sender.account));
  if (flood)
    return {
      market,
      reply: t(
        lang,
        flood.limit === "group_commands_per_member" ? "group.reply.flood_member" : "group.reply.flood_group",
        { wait: waitText(flood.wait_ms) },
      ),
    };
  return { market, reply: null };
}

function shown(l: ListingView) {
  return {
    seq: l.seq,
    side: l.side,
    title: l.title,
    category: l.category,
    price: l.price,
    owner: l.owner,
    fromGroup: l.via !== undefined,
  };
}

/** A refusal as an answer names it: its code and message. */
function refusal(error: unknown): string {
  if (!(error instanceof TrestleError)) throw error;
  return `${error.code}: ${error.message}`;
}
