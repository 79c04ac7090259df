/**
 * `trestle evidence`: what this home holds against relays that were caught forking or truncating a
 * table (docs/SPEC.md §8.3, docs/CLI.md). Evidence is kept next to the held head and makes every
 * command on that table exit 4 until the owner clears it on purpose with --clear, which sets the
 * evidence and the held head aside (nothing is deleted) so the next contact starts afresh.
 */
import { FileHeadStore, PinStore, type TableEvidence } from "../../client/node.js";
import { PublicKeySchema } from "../../protocol/index.js";
import { optional, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError } from "../exit.js";
import { oneLine } from "../../text/format.js";
import type { Command } from "./command.js";

/** `evidence`: exit 4 while any is kept (for --table: for that table), 0 when none; --clear sets one table's aside. */
export const evidence: Command = {
  name: "evidence",
  summary: "show evidence kept against relays caught forking or truncating, or clear a table's (--clear)",
  flags: {
    ...TABLE_FLAG,
    clear: { type: "boolean", help: "set aside --table's evidence and held head, so the next contact starts afresh" },
    "relay-key": {
      type: "string",
      value: "KEY",
      help: "the relay key the evidence is kept under (default: the key pinned for --relay)",
    },
  },
  async run(ctx) {
    const store = new FileHeadStore(ctx.home, ctx.io.clock);
    const table = optional(ctx.args, "table", "TRESTLE_TABLE", ctx.io.env);
    if (ctx.args.values.clear === true) return clear(ctx, store, table);
    const relay = ctx.args.values["relay-key"] === undefined ? undefined : relayKeyOf(ctx);
    const found = store
      .allEvidence()
      .filter((e) => (table === undefined || e.table === table) && (relay === undefined || e.relay === relay));
    if (found.length === 0) {
      ctx.out.result(`no evidence kept${table === undefined ? "" : ` for ${table}`}`, { items: [] });
      return EXIT.OK;
    }
    ctx.out.result(
      found.flatMap((e) => lines(e)),
      { items: found },
    );
    return EXIT.REFUTED;
  },
};

function clear(ctx: Context, store: FileHeadStore, table: string | undefined): void {
  if (table === undefined)
    throw new UsageError("--clear needs --table: evidence is cleared one table at a time, on purpose");
  const relay = relayKeyOf(ctx);
  const cleared = store.clear(relay, table);
  if (!cleared) {
    ctx.out.result(`nothing kept for ${table} at relay ${relay}`, { table, relay, cleared: null });
    return;
  }
  ctx.out.result(
    [
      `set aside ${cleared.items.length} piece(s) of evidence and the held head${cleared.held ? ` (#${cleared.held.seq})` : ""} of ${table}`,
      `kept in ${ctx.home}/heads/${relay}/cleared/; the next command trusts what the relay serves then, as on first use`,
    ],
    { table, relay, cleared },
  );
}

/** The relay key to look under: --relay-key, else the key pinned for --relay. */
function relayKeyOf(ctx: Context): string {
  const given = optional(ctx.args, "relay-key");
  if (given !== undefined) {
    if (!PublicKeySchema.safeParse(given).success)
      throw new UsageError("--relay-key must be a 43-char base64url Ed25519 key");
    return given;
  }
  const pin = new PinStore(ctx.home).get(ctx.relayUrl);
  if (!pin)
    throw new UsageError(`${ctx.relayUrl} is not pinned in this home; name the relay with --relay or --relay-key`);
  return pin.relay_key;
}

function lines(found: TableEvidence): string[] {
  return found.items.map(
    ({ recorded_at, evidence: e }) =>
      `${found.table} at relay ${found.relay}: ${e.kind} at #${e.seq}, recorded ${new Date(recorded_at).toISOString()}: ${oneLine(e.message)}`,
  );
}
