/**
 * Moving a table between relays (docs/SPEC.md §8.4, docs/CLI.md): `trestle import` feeds an
 * export to --relay and hands the table over to it; `trestle mirror` keeps a read-only copy there
 * of a table another relay holds; `trestle promote` hands a mirrored table over to the relay
 * mirroring it (when the origin is gone); `trestle custody sign` gives another owner's signature
 * for either. The relay verifies every page and every signature; the owner's side checks the chain
 * it signs over against the heads this home holds, and verifies the result from the new relay.
 */
import { writeFileSync } from "node:fs";
import {
  custodyRequest,
  custodyStatementAt,
  feedReplica,
  FileHeadStore,
  openTable,
  type LoadedKey,
} from "../../client/node.js";
import {
  CustodySignatureSchema,
  isEntry,
  parseExport,
  signCustody,
  TrestleError,
  type CustodySignature,
  type CustodyStatement,
  type ReplicaStatus,
} from "../../protocol/index.js";
import { OWNER_FLAGS, optional, positionals, required, SEAT_FLAGS, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError, type ExitCode } from "../exit.js";
import { reportLines } from "../../text/format.js";
import { readJsonFile } from "../json-file.js";
import type { Command } from "./command.js";
import { verifyFile } from "./verify.js";

const SIGNATURE_FLAG: Flags = {
  signature: {
    type: "string",
    multiple: true,
    value: "FILE",
    help: "another owner's signature (trestle custody sign --out FILE); repeat for each",
  },
};

/** `import`: feeds a verified export to --relay as a mirror, then hands the table over to it with the owners' signatures. */
const importCommand: Command = {
  name: "import",
  summary: "move a table to --relay from its export: verified, fed, handed over by its owners",
  args: "<export.jsonl>",
  flags: {
    ...OWNER_FLAGS,
    ...SIGNATURE_FLAG,
    "relay-key": {
      type: "string",
      value: "KEY",
      help: "the key of the relay the export comes from (default: its header's key if pinned here)",
    },
  },
  async run(ctx) {
    const [path] = positionals(ctx.args, ["export.jsonl"]);
    const { text, report: checked } = await verifyFile(ctx, path!);
    if (checked.verdict !== "CLEAN") {
      ctx.out.notice(reportLines(checked, ctx.out.e).join("\n"));
      if (checked.verdict === "REFUTED") return EXIT.REFUTED;
      throw new UsageError(
        "the export is not CLEAN here (see above): pin its relay or pass --relay-key, and export as an owner",
      );
    }
    const owner = await ctx.owner();
    const table = checked.table!;
    await ctx.table(table); // pins --relay before anything is sent to it
    const status = await feedReplica(ctx.http(), text);
    if (status.seq !== checked.last_seq || status.link !== lastLink(text)) {
      const why = `relay ${ctx.relayUrl} holds ${table} up to entry #${status.seq}, not the chain this export ends with (#${checked.last_seq})`;
      throw new TrestleError(
        "E_NOT_ALLOWED",
        `${why}; nothing was signed: import a fresh export, or check the mirror and promote it`,
        { seq: status.seq },
      );
    }
    ctx.out.notice(`relay ${ctx.relayUrl} holds ${table} as a mirror up to entry #${status.seq}`);
    return handOver(ctx, table, owner);
  },
};

/** `mirror`: copies a table from --from into a read-only mirror at --relay, or brings the mirror up to date. */
const mirror: Command = {
  name: "mirror",
  summary: "keep a read-only copy of a table at --relay, fed from the relay holding it (--from)",
  args: "<table>",
  flags: { ...OWNER_FLAGS, ...SEAT_FLAGS, from: { type: "string", value: "URL", help: "the relay holding the table" } },
  async run(ctx) {
    const [table] = positionals(ctx.args, ["table"]);
    const from = required(ctx.args, "from");
    const reader = await ctx.reader();
    const origin = await openTable({
      relay: from,
      table: table!,
      home: ctx.home,
      clock: ctx.io.clock,
      onFirstUse: ctx.firstUse,
    });
    const { text, report } = await origin.exportLedger(reader);
    if (report.verdict === "REFUTED") {
      ctx.out.notice(reportLines(report, ctx.out.e).join("\n"));
      return EXIT.REFUTED;
    }
    await ctx.table(table!);
    const status = await feedReplica(ctx.http(), text);
    ctx.out.result(statusLine(ctx, status), status);
  },
};

/** `promote`: hands a table mirrored at --relay over to that relay (the origin is gone, or an import waits for signatures). */
const promote: Command = {
  name: "promote",
  summary: "hand a table mirrored at --relay over to that relay, with its owners' signatures",
  args: "<table>",
  flags: { ...OWNER_FLAGS, ...SIGNATURE_FLAG },
  async run(ctx) {
    const [table] = positionals(ctx.args, ["table"]);
    return handOver(ctx, table!, await ctx.owner());
  },
};

/** `custody sign`: one owner's signature over handing a mirrored table to --relay, written to a file for the owner who promotes it. */
const custodySign: Command = {
  name: "custody sign",
  summary: "sign, as one owner, the hand-over of a table mirrored at --relay (for trestle promote --signature)",
  args: "<table>",
  flags: {
    ...OWNER_FLAGS,
    out: { type: "string", value: "FILE", help: "write the signature to FILE (default: stdout)" },
  },
  async run(ctx) {
    const [table] = positionals(ctx.args, ["table"]);
    const { owner, key } = await ctx.owner();
    const statement = await statementAt(ctx, table!);
    const signature = await signCustody(key.signer, owner, statement);
    const text = JSON.stringify(signature, null, 2) + "\n";
    const out = optional(ctx.args, "out");
    if (out === undefined) ctx.io.stdout.write(text);
    else writeFileSync(out, text);
    ctx.out.notice(`${owner} signed handing ${table} over to ${statement.to} after entry #${statement.seq}`);
  },
};

/** Every custody command, in the order `trestle help` lists them. */
export const CUSTODY: readonly Command[] = [importCommand, mirror, promote, custodySign];

/** The statement for the mirror at --relay, checked against the heads this home holds. */
async function statementAt(ctx: Context, table: string): Promise<CustodyStatement> {
  const client = await ctx.table(table);
  const store = new FileHeadStore(ctx.home);
  return (await custodyStatementAt(ctx.http(), table, client.tracker.relayKey, (relay) => store.load(relay, table)))
    .statement;
}

/** Signs and sends the hand-over of `table` to --relay, then verifies the table there (exit 0 CLEAN). */
async function handOver(ctx: Context, table: string, owner: { owner: string; key: LoadedKey }): Promise<ExitCode> {
  const statement = await statementAt(ctx, table);
  const others = ((ctx.args.values.signature as string[] | undefined) ?? []).map((file) => signatureFile(file));
  const request = await custodyRequest(statement, owner.key.signer, owner.owner, others);
  try {
    const taken = await ctx.http().takeCustody(table, request);
    ctx.out.notice(`relay ${ctx.relayUrl} holds ${table} from its custody entry #${taken.seq} on`);
  } catch (error) {
    if (!(error instanceof TrestleError) || error.code !== "E_FORBIDDEN" || error.details?.needed === undefined)
      throw error;
    throw new TrestleError(
      "E_FORBIDDEN",
      `${error.message}. The mirror waits at ${ctx.relayUrl}: have other owners run \`trestle custody sign ${table} --relay ${ctx.relayUrl} --owner NAME --out FILE\`, then \`trestle promote ${table} --signature FILE ...\``,
      error.details,
    );
  }
  const client = await ctx.table(table);
  const { report } = await client.exportLedger({ signer: owner.key.signer, as: { owner: owner.owner } });
  ctx.out.result(reportLines(report, ctx.out.c), report);
  return report.verdict === "CLEAN" ? EXIT.OK : report.verdict === "REFUTED" ? EXIT.REFUTED : EXIT.INCONCLUSIVE;
}

/** The link of the export's last entry (the export verified CLEAN, so it has one). */
function lastLink(text: string): string | undefined {
  const parsed = parseExport(text);
  const last = parsed.ok ? parsed.view.items[parsed.view.items.length - 1] : undefined;
  return last && isEntry(last) ? last.link : undefined;
}

function signatureFile(path: string): CustodySignature {
  const parsed = CustodySignatureSchema.safeParse(readJsonFile(path, "the signature file"));
  if (!parsed.success) throw new UsageError(`the signature file ${path} is not one written by trestle custody sign`);
  return parsed.data;
}

function statusLine(ctx: Context, status: ReplicaStatus): string {
  return `relay ${ctx.relayUrl} mirrors ${status.table} up to entry #${status.seq} (head of relay ${status.relay})${status.mirror ? "" : "; it holds the table itself"}`;
}
