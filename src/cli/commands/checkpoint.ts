/**
 * `trestle checkpoint --table T [--witness KEY,… --witness-k K]`: the table's checkpoint now and
 * who cosigned it (docs/CLIENT.md, SPEC §12). It needs no seat: a reader with an empty home pins
 * the relay on first use and gives the witness keys it trusts. The checkpoint must extend the one
 * this home kept (exit 4 otherwise), and is kept in its place. Exit 0 when at least K of the
 * witnesses cosigned it, 5 (INCONCLUSIVE) when fewer did, as for a relay that forked the table
 * after they cosigned: no honest witness cosigns the forked history.
 */
import { CheckpointStore } from "../../client/checkpoint-store.js";
import { TlogReader } from "../../client/tlog-reader.js";
import { TABLE_FLAG } from "../args.js";
import { EXIT } from "../exit.js";
import { WITNESS_FLAGS, witnessReport, witnessRule } from "../witness-report.js";
import type { Command } from "./command.js";

/** `checkpoint`: prints the table's signed checkpoint and the witness policy's verdict on it. */
export const checkpoint: Command = {
  name: "checkpoint",
  summary: "show the table's signed checkpoint now and which witnesses cosigned it (exit 5 below --witness-k)",
  flags: { ...TABLE_FLAG, ...WITNESS_FLAGS },
  async run(ctx) {
    const table = ctx.tableId();
    const client = await ctx.table(table);
    const relayKey = client.tracker.relayKey;
    const store = new CheckpointStore(ctx.home);
    const signed = await new TlogReader(client.http, table, relayKey).extending(store.load(relayKey, table));
    store.save(relayKey, table, signed.note);
    const rule = witnessRule(ctx);
    const policy = await witnessReport(signed, signed.note, rule);
    const { origin, size, root } = signed.checkpoint;
    const lines = [
      `${policy.met ? "WITNESSED" : "SIGNED BY THE RELAY ONLY"}: the log ${origin} at size ${size}, signed by relay key ${relayKey}`,
      policy.line,
    ];
    ctx.out.result(lines, {
      witnessed_ok: policy.met,
      table,
      origin,
      size,
      root,
      relay_key: relayKey,
      witnessed: policy.witnessed,
      witness_k: rule.k,
      note: signed.note,
    });
    return policy.met ? EXIT.OK : EXIT.INCONCLUSIVE;
  },
};
