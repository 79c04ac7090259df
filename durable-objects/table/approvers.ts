/**
 * E_NO_APPROVER (docs/SPEC.md §5.6): a proposal may open a task that waits for an owner only if
 * somebody can answer it: the owner's config says `approvals: "async"`, the owner has a live owner
 * session or a connected human seat at this table, or a notification channel of the owner has
 * delivered before. Presence and channel health are not in the ledger, so this is a relay-side
 * refusal before admit (never an entry, never replayed).
 */
import { TrestleError } from "../../src/protocol/errors.js";
import type { Admitted } from "../../src/protocol/policy/admit.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import { own } from "../../src/protocol/encoding/records.js";
import { unwrap } from "../result.js";
import { ownerObject } from "../stubs.js";

/** Whether an owner (by name and owner key) has a notification channel that has delivered before; never throws. */
export type ChannelProbe = (owner: { name: string; public_key: string }) => Promise<boolean>;

/** The relay's probe: the owner's OwnerDO (docs/SPEC.md §11.4); an unreachable object counts as no channel. */
export function ownerChannels(env: Env): ChannelProbe {
  return async (owner) => {
    try {
      return unwrap(await ownerObject(env, owner.public_key).hasProvenChannel(owner.public_key));
    } catch (error) {
      console.error("channel health unavailable", error);
      return false;
    }
  };
}

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
    if (!(await channels({ name, public_key: owner.public_key }))) unanswered.push(name);
  }
  if (unanswered.length > 0) {
    throw new TrestleError(
      "E_NO_APPROVER",
      `nobody can approve for ${unanswered.join(", ")} now: no owner session, connected human seat or proven notification channel, and approvals are not "async"`,
      { owners: unanswered },
    );
  }
}
