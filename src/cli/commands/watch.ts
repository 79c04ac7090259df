/**
 * `trestle watch`: a live tail over the seat's WebSocket. Every entry is chain-verified and every
 * head checked against the pinned relay key before it is printed; the socket reconnects and
 * resumes by itself. Ends when the table closes, on Ctrl-C, or when the relay is caught forking
 * or truncating (exit 4, with the evidence).
 */
import { TableSocket } from "../../client/index.js";
import { isEntry } from "../../protocol/index.js";
import { integer, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { EXIT } from "../exit.js";
import { entryLine } from "../format.js";
import type { Command } from "./command.js";

/** `watch`: verified live tail until the table closes (exit 0) or the relay is caught (exit 4). */
export const watch: Command = {
  name: "watch",
  summary: "follow a table live over WebSocket, verifying every entry and head",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, after: { type: "string", value: "SEQ", help: "print only entries after SEQ (all are still verified)" } },
  async run(ctx) {
    const table = ctx.tableId();
    const { seat, key } = await ctx.seat();
    const after = integer(ctx.args, "after", 0)!;
    const client = await ctx.table(table);
    await client.head(); // a missing table or a rolled-back one shows here, with the relay's own code
    let closed = false;
    const socket: TableSocket = new TableSocket({
      url: client.http.socketUrl(table),
      table,
      seat,
      signer: key.signer,
      tracker: client.tracker,
      handlers: {
        onEntries: (items) => {
          for (const item of items) {
            if (item.seq > after) ctx.out.line(entryLine(item, ctx.out.c), item);
            if (isEntry(item) && item.kind === "system" && item.subkind === "table_closed") closed = true;
          }
          if (closed) socket.close();
        },
        onStatus: (status, detail) => {
          if (status === "reconnecting" && detail) ctx.out.note(`connection lost; reconnecting in ${Math.round(detail.delayMs)} ms (attempt ${detail.attempt})`);
        },
        onEvidence: (evidence) => ctx.out.warn(`RELAY CAUGHT: ${evidence.message}`),
      },
    });
    const interrupt = () => socket.close();
    process.once("SIGINT", interrupt);
    try {
      await socket.start();
      ctx.out.note(`watching ${table} as ${seat}; Ctrl-C to stop`);
      const end = await socket.ended;
      if (end.reason === "error") throw end.error;
      return EXIT.OK;
    } finally {
      process.off("SIGINT", interrupt);
    }
  },
};
