/**
 * `trestle verify <table | export.jsonl>`: CLEAN, REFUTED or INCONCLUSIVE with the coverage
 * (docs/SPEC.md §8.2). A file is checked against the relay key given with --relay-key, or its
 * header's key if this home pinned it for some relay; a table id is exported from the relay first
 * (as --owner or --seat). Heads this home holds for the table are checked too.
 * `trestle verify --task <id> --verdict pass|fail <reason>` instead writes a `verify` entry: a seat
 * other than the executor checks a reported task (§5.6). `trestle verify --proof FILE` checks a
 * proof file of `trestle prove` offline (verify-proof.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { exportIdentity, FileHeadStore, PinStore, verifyExportText } from "../../client/node.js";
import { mirrorHolder } from "../../client/follow-custody.js";
import { nodeEd25519 } from "../../client/node-ed25519.js";
import { nodeSha256 } from "../../client/node-sha256.js";
import { checkerPool, threadsBeside } from "../../client/verify-pool.js";
import {
  configOf,
  entryChecker,
  parseExport,
  PublicKeySchema,
  type ParsedExport,
  TableIdSchema,
  type VerifyReport,
} from "../../protocol/index.js";
import { optional, OWNER_FLAGS, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError } from "../exit.js";
import { reportLines } from "../../text/format.js";
import type { Command } from "./command.js";
import { bodyOf, submitEntry } from "./write.js";
import { verifyProofFile } from "../verify-proof.js";
import { tableWitnesses, WITNESS_FLAGS, type CheckpointRead, type MirroredFrom } from "../witness-report.js";
import { TlogReader } from "../../client/tlog-reader.js";
import type { Witnesses } from "../../protocol/schemas/witnesses.js";

/** The worker script of the leaf and signature checks: the CLI bundle's neighbour dist/verify-worker.mjs (scripts/build-cli.mjs), as this file runs only bundled. */
const VERIFY_WORKER = new URL("./verify-worker.mjs", import.meta.url);

/** `verify`: exit 0 CLEAN, 4 REFUTED, 5 INCONCLUSIVE; with --task, a verify entry (exit 0 when written). */
export const verify: Command = {
  name: "verify",
  summary: "verify a table or export: CLEAN, REFUTED or INCONCLUSIVE (--task: check a reported task)",
  args: "<table | export.jsonl>  |  --proof FILE  |  --task ID --verdict pass|fail <reason | ->",
  flags: {
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    "relay-key": {
      type: "string",
      value: "KEY",
      help: "the relay key to trust for a file (default: its header's key if pinned here)",
    },
    proof: { type: "string", value: "FILE", help: "check a proof file of `trestle prove` offline instead" },
    ...WITNESS_FLAGS,
    task: {
      type: "string",
      value: "ID",
      help: "write a verify entry for this reported task instead (as --seat, not its executor)",
    },
    verdict: { type: "string", value: "pass|fail", help: "with --task: what the check found" },
    ...TABLE_FLAG,
  },
  async run(ctx) {
    if (ctx.args.values.task !== undefined) return verifyTask(ctx);
    const proof = optional(ctx.args, "proof");
    if (proof !== undefined) return verifyProofFile(ctx, proof);
    if (ctx.args.values.verdict !== undefined || ctx.args.values.table !== undefined) {
      throw new UsageError(
        "--verdict and --table go with --task; to verify a table's transcript, name it: trestle verify <table>",
      );
    }
    const [target] = positionals(ctx.args, ["table | export.jsonl"]);
    const isFile = existsSync(target!);
    if (!isFile && !TableIdSchema.safeParse(target).success)
      throw new UsageError(`no file ${target}, and it is not a table id (3-64 of [a-z0-9._-])`);
    const { report, witnesses, signed, mirrored } = isFile
      ? await verifyFile(ctx, target!)
      : await verifyTable(ctx, target!);
    const named = witnesses ? await tableWitnesses(ctx, witnesses, signed ?? mirrored) : undefined;
    ctx.out.result(
      [...reportLines(report, ctx.out.c), ...(named?.lines ?? [])],
      named ? { ...report, witnesses: named.json } : report,
    );
    return report.verdict === "CLEAN" ? EXIT.OK : report.verdict === "REFUTED" ? EXIT.REFUTED : EXIT.INCONCLUSIVE;
  },
};

async function verifyTask(ctx: Context): Promise<void> {
  const [reason] = positionals(ctx.args, ["reason"]);
  const verdict = optional(ctx.args, "verdict");
  if (verdict !== "pass" && verdict !== "fail") throw new UsageError("--verdict must be pass or fail");
  const body = await bodyOf(ctx, reason, "verify");
  await submitEntry(ctx, { kind: "verify", task: String(ctx.args.values.task), verdict, body });
}

/** The export file at `path` and its verification against --relay-key (or its header's key, if pinned here), the head held and the evidence kept for its table. */
export async function verifyFile(ctx: Context, path: string): Promise<Verified> {
  // Started first: the threads load while the file is read and parsed. This thread checks windows
  // too, once its replay is done, so a thread is started for each other core only.
  // Closed whatever happens below: a thread left open would keep the process alive after a refusal.
  const pool = checkerPool(VERIFY_WORKER, threadsBeside(), entryChecker(nodeSha256, nodeEd25519));
  try {
    const text = readExport(path);
    const parsed = parseExport(text);
    const given = optional(ctx.args, "relay-key");
    if (given !== undefined && !PublicKeySchema.safeParse(given).success)
      throw new UsageError("--relay-key must be a 43-char base64url Ed25519 key");
    const identity = exportIdentity(text, parsed);
    const pinned = identity && new PinStore(ctx.home).pins(identity.relay) ? identity.relay : undefined;
    const relayKey = given ?? pinned;
    if (relayKey === undefined)
      ctx.out.notice("the export's relay key is not pinned here; pass --relay-key to check it against a key you trust");
    const store = new FileHeadStore(ctx.home);
    const held = identity ? store.load(identity.relay, identity.table) : null;
    const evidence = identity ? store.evidence(identity.relay, identity.table) : [];
    const report = await verifyExportText(
      text,
      {
        ...(relayKey ? { relayKey } : {}),
        held: held ? [held] : [],
        evidence,
        checker: pool.check,
        sha256: nodeSha256,
      },
      parsed,
    );
    return { text, report, witnesses: witnessesOf(parsed) };
  } finally {
    await pool.close();
  }
}

/** The export file's text; a path that cannot be read as a file (a directory, no permission) is a usage error naming it. */
function readExport(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the export ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The table exported from the relay (as --owner or --seat) and verified, with the relay's checkpoint now when its config names witnesses;
 * from a relay that only mirrors the table, which serves no checkpoint (its log is the holding relay's), where to read it instead.
 */
async function verifyTable(ctx: Context, table: string): Promise<Verified> {
  const reader = await ctx.reader();
  const client = await ctx.table(table);
  const { text, report, parsed } = await client.exportLedger(reader);
  const witnesses = witnessesOf(parsed);
  if (!witnesses) return { text, report };
  const holder = mirrorHolder(parsed, client.tracker.relayKey);
  if (holder !== null) return { text, report, witnesses, mirrored: mirroredFrom(ctx, table, holder) };
  const signed = await new TlogReader(client.http, table, client.tracker.relayKey).checkpoint();
  return {
    text,
    report,
    witnesses,
    signed: { note: signed.note, size: signed.checkpoint.size, others: signed.others },
  };
}

/** The table read through the mirror at --relay, held by relay key `holder`, with the URL this home pinned to that key, if any. */
function mirroredFrom(ctx: Context, table: string, holder: string): MirroredFrom {
  const url = Object.entries(new PinStore(ctx.home).all()).find(([, pin]) => pin.relay_key === holder)?.[0];
  return { table, mirror: ctx.relayUrl, relay: holder, ...(url === undefined ? {} : { url }) };
}

/** An export verified: its text, the report, the witnesses its config names and (online) the relay's checkpoint now, or the relay holding the table when --relay only mirrors it. */
export interface Verified {
  text: string;
  report: VerifyReport;
  witnesses?: Witnesses;
  signed?: CheckpointRead;
  mirrored?: MirroredFrom;
}

function witnessesOf(parsed: ParsedExport): Witnesses | undefined {
  return parsed.ok ? configOf(parsed.view)?.witnesses : undefined;
}
