/**
 * `trestle prove --table T --seq N`: a self-contained proof that entry N is in the table's
 * transparency log (docs/CLIENT.md): the entry, its inclusion proof computed from the relay's tiles
 * and the relay's signed checkpoint, as one JSON file an auditor checks offline with
 * `trestle verify --proof FILE`. The checkpoint must extend the last one this home kept for the
 * table (a consistency proof from tiles; exit 4 when it does not), and is kept in its place.
 */
import { writeFileSync } from "node:fs";
import { CheckpointStore } from "../../client/checkpoint-store.js";
import { TlogReader } from "../../client/tlog-reader.js";
import { integer, optional, OWNER_FLAGS, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

/** `prove`: writes the proof of one entry (to --out, or stdout). */
export const prove: Command = {
  name: "prove",
  summary: "write a self-contained proof that one entry is in the table's log (check it with verify --proof)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    seq: { type: "string", value: "N", help: "the entry to prove" },
    out: { type: "string", value: "FILE", help: "write the proof to FILE (default: stdout)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const seq = integer(ctx.args, "seq");
    if (seq === undefined || seq < 1) throw new UsageError("--seq N is required: the entry to prove (1 or more)");
    const reader = await ctx.reader();
    const client = await ctx.table(table);
    const relayKey = client.tracker.relayKey;
    const log = new TlogReader(client.http, table, relayKey, reader);
    const store = new CheckpointStore(ctx.home);
    const signed = await log.extending(store.load(relayKey, table));
    store.save(relayKey, table, signed.note);
    const proof = await log.prove(seq, signed);
    const text = JSON.stringify(proof, null, 2) + "\n";
    const out = optional(ctx.args, "out");
    const summary = `entry ${seq} of ${table} is in the log ${signed.checkpoint.origin} at size ${signed.checkpoint.size}`;
    if (out === undefined) {
      ctx.io.stdout.write(text);
      ctx.out.notice(summary);
    } else {
      writeFileSync(out, text);
      ctx.out.result([`${summary}; proof saved to ${out}`], {
        path: out,
        table,
        seq,
        size: signed.checkpoint.size,
        origin: signed.checkpoint.origin,
      });
    }
  },
};
