/** `trestle history`: the whole ledger as this owner or seat may read it, chain and head verified. */
import { integer, OWNER_FLAGS, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { entryLine, headRef } from "../../text/format.js";
import type { Command } from "./command.js";

/** `history`: every entry, chain verified, as an owner or a seat. */
export const history: Command = {
  name: "history",
  summary: "print the ledger, verified from entry 1 up to a signed head",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    from: { type: "string", value: "SEQ", help: "print from SEQ on (all are still verified)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const reader = await ctx.reader();
    const from = integer(ctx.args, "from", 1)!;
    const client = await ctx.table(table);
    const { items, head } = await client.history(reader);
    const shown = items.filter((e) => e.seq >= from);
    ctx.out.result(
      [
        ...shown.map((e) => entryLine(e, ctx.out.c)),
        ctx.out.c.dim(`chain verified up to the relay's signed head ${headRef(head)}`),
      ],
      { items: shown, head },
    );
  },
};
