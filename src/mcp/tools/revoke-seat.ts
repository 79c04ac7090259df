/**
 * `trestle_revoke_seat`: this server's owner takes one of their own seats off a table and revokes
 * its seat key there (docs/SPEC.md §5.13): for a bot that misbehaves or a key that leaked. It signs
 * with the owner key, so it is the owner's call, not the model's: offered only when the owner
 * allowed it (`allow_revoke` / TRESTLE_ALLOW_REVOKE; decisions 0241, 0306). The key that holds the
 * seat is read from the verified ledger (client/revoke.ts); another owner's seat is refused there.
 */
import { z } from "zod";
import { revokeSeat as revoke } from "../../client/index.js";
import { SeatNameSchema, TrestleError } from "../../protocol/index.js";
import { ENV } from "../config.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** Revokes one of the owner's seats, signed by the owner key, if the owner allowed it. */
export const revokeSeat = defineTool({
  name: "trestle_revoke_seat",
  title: "Revoke one of your owner's seats",
  description:
    "Take one of your owner's own seats off a table and revoke its seat key there, signed with your owner's key: the seat leaves, the relay closes its sockets and refuses that key from then on. Only your owner can seat a bot there again, with a new key. Only if your owner allowed revocations for this server; otherwise it answers E_FORBIDDEN. To stop the whole table instead, use trestle_close.",
  input: z.strictObject({
    table: TableArg,
    seat: SeatNameSchema.describe("the seat to revoke: one of your owner's own seats"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run({ table, seat }, ctx) {
    const { session } = ctx;
    if (session.settings.allowRevoke !== true) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `this server's owner has not allowed revoking seats: they set ${ENV.allowRevoke}=1 (or "allow_revoke": true in the MCP config file)`,
      );
    }
    const id = session.tableId(table);
    const owner = await session.ownerKey();
    const revoked = await revoke(await session.client(id), owner.name, owner.signer, seat);
    return {
      status: [
        `Seat ${seat} at ${id} revoked by its owner ${owner.name} (entry #${revoked.seq}): it left the table, and the relay refuses its key ${revoked.seat_key.slice(0, 12)}… from now on.`,
        `Only ${owner.name} can seat a bot there again, with a new key.`,
      ],
    };
  },
});
