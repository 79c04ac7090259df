/**
 * E_NO_APPROVER (docs/SPEC.md §5.5): a proposal may open a task that waits for an owner only if
 * somebody can answer it: the owner's config says `approvals: "async"`, the owner has a live owner
 * session or a connected human seat at this table, or a notification channel of the owner has
 * delivered before. Presence and channel health are not in the ledger, so this is a relay-side
 * refusal before admit (never an entry, never replayed).
 */
import { TrestleError } from "../../src/protocol/errors.js";
import type { Admitted } from "../../src/protocol/policy/admit.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import { own } from "../../src/protocol/records.js";

/** One notification channel of an owner, as the chat-apps work reports it. */
export interface ChannelHealth {
  /** `telegram`, `line`, `discord`, ... */
  channel: string;
  /** Whether a notification on this channel was ever delivered; a channel that never delivered is unproven. */
  delivered_before: boolean;
}

/** Reports an owner's notification channels (by name and owner key); must not throw for an owner with none. */
export type ChannelProbe = (owner: { name: string; public_key: string }) => Promise<readonly ChannelHealth[]>;

/** The default probe: no owner has a notification channel. */
export const NO_CHANNELS: ChannelProbe = async () => [];

/** Owners whose tasks, opened by the admitted batch, wait for their approval (not auto-approved). */
export function waitingOwners(admitted: Admitted): string[] {
  const owners: string[] = [];
  for (const entry of admitted.entries) {
    if (entry.kind !== "system" || entry.subkind !== "task_opened") continue;
    if (own(admitted.state.tasks, entry.data.task)?.state === "awaiting_approval") owners.push(entry.data.owner);
  }
  return owners;
}

/** Throws E_NO_APPROVER naming every owner in `owners` nobody can answer for. */
export async function requireApprovers(
  state: TableState,
  owners: readonly string[],
  answerers: ReadonlySet<string>,
  channels: ChannelProbe,
): Promise<void> {
  const unanswered: string[] = [];
  for (const name of owners) {
    const owner = own(state.config.owners, name);
    if (!owner || owner.approvals === "async" || answerers.has(name)) continue;
    const health = await channels({ name, public_key: owner.public_key });
    if (!health.some((h) => h.delivered_before)) unanswered.push(name);
  }
  if (unanswered.length > 0) {
    throw new TrestleError(
      "E_NO_APPROVER",
      `nobody can approve for ${unanswered.join(", ")} now: no owner session, connected human seat or proven notification channel, and approvals are not "async"`,
      { owners: unanswered },
    );
  }
}
