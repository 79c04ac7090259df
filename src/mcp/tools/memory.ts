/**
 * `trestle_memory`: the table's memory, folded from the verified ledger as this seat (or owner)
 * sees it (src/mcp/table-memory.ts): topic and sub-tables, decisions in force, tasks with their
 * effects, state and executor, open requests, and who holds which pause.
 */
import { z } from "zod";
import { frameInert, type InertItem } from "../../text/framing.js";
import { FINAL_TASK_STATES, holdersText } from "../../protocol/index.js";
import { tableMemory, type TableMemory } from "../table-memory.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";
import { AsArg } from "./history.js";

/** Derives table memory from the verified ledger. */
export const memory = defineTool({
  name: "trestle_memory",
  title: "Recall what the table settled",
  description:
    "What the table has settled and who does what, derived from its verified ledger: topic and sub-tables, every decision in force, every task (owner, effects, state, executor), and requests still unanswered.",
  input: z.strictObject({ table: TableArg, as: AsArg }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, as }, ctx) {
    const id = ctx.session.tableId(table);
    const reader = await ctx.session.reader(as);
    const client = await ctx.session.client(id);
    const { items, head } = await client.history(reader);
    const m = tableMemory(items);
    const who = "seat" in reader.as ? `seat ${reader.as.seat}` : `owner ${reader.as.owner}`;
    const open = m.tasks.filter((t) => !FINAL_TASK_STATES.has(t.state)).length;
    return {
      status: [
        `Memory of ${id} as ${who}, from ${m.entries} entries chain-verified up to the relay's signed head #${head.seq}${m.hidden > 0 ? ` (${m.hidden} hidden from this reader, so this covers only what it may read)` : ""}.`,
        `${m.closed ? `Closed (${m.closed}).` : m.pauses.length > 0 ? `Paused by ${holdersText(m.pauses)}: no seat writes until each of them lifts their own pause.` : "Open."} ${m.decisions.length} decisions in force, ${m.tasks.length} tasks (${open} open), ${m.requests.length} unanswered requests, ${m.subtables.length} sub-tables.`,
      ],
      data: frameInert(memoryItems(m), ctx.boundary()),
    };
  },
});

function memoryItems(m: TableMemory): InertItem[] {
  const items: InertItem[] = [{ header: `topic: ${m.topic ?? "(not visible)"}` }];
  for (const d of m.decisions)
    items.push({
      header: `decision #${d.seq} by ${d.seat}${d.by === "quorum" ? " (by quorum)" : ""}${d.refs.length > 0 ? `, refs ${d.refs.join(" ")}` : ""}`,
      body: d.body,
    });
  for (const t of m.tasks) {
    items.push({
      header: `task ${t.id}: ${t.state}, owner ${t.owner}, from proposal #${t.proposal}, executor ${t.executor ?? "none yet"}`,
      fields: [["effects", t.effects]],
    });
  }
  for (const r of m.requests)
    items.push({
      header: `open request ${r.request_id} (${r.type}) from ${r.seat} at #${r.seq}${r.to ? ` to ${r.to.join(", ")}` : ""}`,
    });
  for (const s of m.subtables) {
    const result = s.result ? `closed (${s.result.reason})` : "still open";
    items.push({
      header: `sub-table ${s.table} opened by ${s.opener} at #${s.seq}, ${result}, topic: ${s.topic}`,
      body: s.result?.decision ?? undefined,
    });
  }
  return items;
}
