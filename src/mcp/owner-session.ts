/**
 * When this server holds an owner session (docs/SPEC.md §6.3) at a table: only while the
 * connected MCP client can hand its human a link to the principal window (URL elicitation), since
 * an owner session tells the relay that somebody can answer approvals for this owner now (§5.6,
 * E_NO_APPROVER), and through this server only the human can, there (trestle_approve asks them).
 * A table where the owner is not listed, or that does not exist yet, simply gets no session;
 * nothing fails because of it.
 */
import type { Identity, McpSession } from "./session.js";
import type { ElicitationModes } from "./tool.js";

/** Whether an owner session is held, and if not, why. */
export type OwnerPresence = "live" | "no_owner_key" | "no_elicitation" | "refused";

/** Holds (once) an owner session at `table` when an owner key is configured and the client can show the owner a link. */
export async function holdOwnerSession(
  ctx: { session: McpSession; elicitation: ElicitationModes },
  table: string,
): Promise<OwnerPresence> {
  const { session } = ctx;
  if (!session.hasOwner) return "no_owner_key";
  if (!ctx.elicitation.url) return "no_elicitation";
  let owner: Identity;
  try {
    owner = await session.ownerKey();
  } catch (error) {
    session.deps.log(`cannot load the owner key: ${error instanceof Error ? error.message : String(error)}`);
    return "no_owner_key";
  }
  const live = await session.live(table).catch(() => null);
  if (!live) return "refused";
  return (await live.holdOwner(owner.name, owner.signer)) ? "live" : "refused";
}
