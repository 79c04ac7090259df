/** `trestle read`: the seat's projection (what its model reads): rules, seats, decisions, floor, pauses and the tail (opened, in an e2e room whose key this home holds). */
import { integer, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { bodyText, oneLine, pausesText, projectedLine } from "../../text/format.js";
import type { Command } from "./command.js";
import { openedProjection } from "../../owner/index.js";

/** `read`: the projection, read as the seat. */
export const read: Command = {
  name: "read",
  summary: "show a seat's projection: rules, seats, decisions, floor and new entries",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    after: { type: "string", value: "SEQ", help: "only entries after SEQ (default 0: all)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const { seat, key } = await ctx.seat();
    const client = await ctx.table(table);
    const p = await openedProjection(
      ctx.home,
      table,
      await client.projection({ signer: key.signer, as: { seat } }, integer(ctx.args, "after", 0)),
    );
    const c = ctx.out.c;
    const floor =
      p.closed !== null
        ? c.yellow(`closed (${oneLine(p.closed)})`)
        : p.floor.holder === null
          ? "free"
          : `${p.floor.holder}${p.floor.yours ? c.green(" (you)") : ""}, round ${p.floor.round}`;
    ctx.out.result(
      [
        `${c.bold(p.prefix.table)}: ${oneLine(p.prefix.topic)}`,
        `topology ${oneLine(p.prefix.rules.topology.kind)}; seats ${p.prefix.seats.map((s) => `${s.name} (${s.owner}${s.human ? ", human" : ""})`).join(", ")}`,
        ...p.prefix.decisions.map((d) => `decision #${d.seq} by ${d.seat}: ${bodyText(d.body)}`),
        `floor: ${floor}`,
        ...(p.pauses.length > 0 ? [c.yellow(pausesText(p.pauses))] : []),
        ...p.tail.map((e) => projectedLine(e, c)),
        c.dim(`cursor ${p.cursor}${p.more ? " (more follow)" : ""}; prefix ${p.prefix_sha256.slice(0, 12)}…`),
      ],
      p,
    );
  },
};
