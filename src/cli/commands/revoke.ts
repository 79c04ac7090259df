/**
 * `trestle revoke --table ID --seat NAME`: the owner takes one of their own seats off a table and
 * revokes its seat key there (docs/SPEC.md §5.13), signed with the owner key. The seat's present key
 * is read from the verified ledger first (client/revoke.ts); the relay closes the seat's sockets and
 * refuses that key from then on. The seat can be taken again only by this owner, with a new key.
 */
import { revokeSeat } from "../../client/index.js";
import { OWNER_FLAGS, required, TABLE_FLAG } from "../args.js";
import { headRef } from "../../text/format.js";
import type { Command } from "./command.js";

/** `revoke`: the owner-signed revocation of one of the owner's seats; prints the entry, the key now refused and how to seat a bot again. */
export const revoke: Command = {
  name: "revoke",
  summary: "take one of your seats off a table and revoke its key there (signed with your owner key)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    seat: { type: "string", value: "NAME", help: "the seat to revoke, one of your own (required: no default)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const seat = required(ctx.args, "seat");
    const { owner, key } = await ctx.owner();
    const client = await ctx.table(table);
    const revoked = await revokeSeat(client, owner, key.signer, seat);
    const c = ctx.out.c;
    ctx.out.result(
      [
        `${c.bold(seat)} revoked at ${table} by its owner ${owner} as entry #${revoked.seq} (head ${headRef(revoked.head)}): it left the table`,
        `its key ${revoked.seat_key.slice(0, 12)}… is refused there from now on: writes, reads and sockets (its open sockets were closed)`,
        c.dim(
          `to seat a bot there again, with a new key: trestle join --table ${table} --seat ${seat} --owner ${owner} --key <a new key file>`,
        ),
      ],
      revoked,
    );
  },
};
