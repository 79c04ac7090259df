/**
 * After a write is persisted, tell each affected owner's OwnerDO what happened (docs/SPEC.md
 * §11.3). Best effort and after the fact: a failure is logged and never undoes or delays the
 * write; event ids are deterministic, so an OwnerDO ignores an event it already has.
 */
import { notificationsFor } from "../../src/protocol/notifications.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import type { Entry } from "../../src/protocol/schemas/entry.js";
import type { Env } from "../env.js";
import { unwrap } from "../result.js";

/** Sends each owner its events for `appended`, judged against `state` after the batch. */
export async function notifyOwners(env: Env, state: TableState, appended: readonly Entry[]): Promise<void> {
  const batches = notificationsFor(state, appended);
  await Promise.all(
    [...batches].map(async ([ownerKey, events]) => {
      try {
        unwrap(await env.OWNERS.get(env.OWNERS.idFromName(ownerKey)).notify({ owner_key: ownerKey, events }));
      } catch (error) {
        console.error("owner notify failed", error);
      }
    }),
  );
}
