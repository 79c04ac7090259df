/**
 * What a market tells its chat groups' audience (docs/SPEC.md §5.15 "Groups"): that a group was
 * bound (its object takes it as a channel and greets it) or unbound (it drops it). Pure: a function
 * of the entry just appended, so the event is recorded in the entry's own transaction and survives
 * a crash like every owner notification (§11.3).
 */
import type { Entry } from "../schemas/entry.js";
import type { GroupBoundNotice, GroupUnboundNotice } from "../schemas/notify.js";

/** The group audience's event for `entry` under the market's `base` (its id `<table>:<seq>:<type>`); null for anything else. */
export function groupEventOf(entry: Entry, base: { table: string; topic: string }): GroupBoundNotice | GroupUnboundNotice | null {
  if (entry.kind !== "system") return null;
  const id = (type: string) => `${base.table}:${entry.seq}:${type}`;
  if (entry.subkind === "group_bound") {
    const { platform, group, lang } = entry.data;
    return { ...base, type: "group_bound", id: id("group_bound"), seq: entry.seq, platform, group, lang };
  }
  if (entry.subkind === "group_unbound") return { ...base, type: "group_unbound", id: id("group_unbound"), seq: entry.seq, platform: entry.data.platform, group: entry.data.group };
  return null;
}
