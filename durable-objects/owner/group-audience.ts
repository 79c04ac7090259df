/**
 * A market's chat groups as channels of one OwnerDO, the one named by the market's group audience
 * (`groups:<market>`, docs/SPEC.md §5.15 "Groups"): the market's `group_bound` event makes the group
 * a channel in its language, greeted once through the outbox (which proves it, as an owner's first
 * message does); `group_unbound` drops it and anything still queued for it. Both arrive through
 * the durable hand-off every notification takes (§11.3), so a crash between the ledger and this
 * object loses neither.
 */
import type { Outgoing } from "../../src/chat/render.js";
import type { Bindings, Channel } from "./bindings.js";
import type { Inbox } from "./inbox.js";
import type { Outbox } from "./outbox.js";

/** The events that bind and unbind a market's groups: stored even while the audience has no channel. */
export const GROUP_EVENTS: ReadonlySet<Outgoing["type"]> = new Set(["group_bound", "group_unbound"]);

/**
 * Applies an event just stored (first time only) to the channels: a bound group's channel, the only
 * one its greeting goes to; null for a bound group an unbinding stored earlier already dropped (the
 * table's hand-off may bring them out of order) and for an unbinding, which drops the group and
 * anything queued for it; undefined (every channel) for any other event.
 */
export function applyGroupEvent(
  bindings: Bindings,
  outbox: Outbox,
  inbox: Inbox,
  event: Outgoing,
  now: number,
): Channel | null | undefined {
  if (event.type === "group_bound") {
    if (inbox.groupUnboundAfter(event.platform, event.group, event.seq)) return null;
    bindings.bind({
      platform: event.platform,
      account: event.group,
      chat: event.group,
      label: event.group,
      lang: event.lang,
      bound_at: now,
    });
    return bindings.get(event.platform, event.group) ?? null;
  }
  if (event.type === "group_unbound") {
    outbox.forget(event.platform, event.group);
    bindings.unbind(event.platform, event.group);
    return null;
  }
  return undefined;
}
