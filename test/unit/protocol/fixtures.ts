/**
 * Known-good ledgers for the verify tests, and the tools to tamper with them one field at a time
 * (re-chaining and re-signing heads where a test needs the chain itself to stay consistent).
 */
import {
  chainEntry,
  exportText,
  GENESIS_LINK,
  signHead,
  signSubmission,
  type Entry,
  type HiddenEntry,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type UnchainedEntry,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, MemoryLedger, nonceOf, type Cast } from "../../support/table-fixture.js";

/** A debate run to a decision: 15 entries (open, 3 joins, floor start, 4 says and floors, decision, close). */
export async function debateToDecision(k?: Cast): Promise<{ k: Cast; l: MemoryLedger; entries: Entry[]; head: SignedHead }> {
  k ??= await cast();
  const l = new MemoryLedger(k.relay);
  await l.create(k.ops, "ops", debateConfig(k));
  await l.join(k.tao, "tao", "bot-tao", k.botTao);
  await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
  await l.join(k.ops, "ops", "judge", k.judge);
  for (let r = 1; r <= 2; r++) {
    await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: `pro, round ${r}` });
    await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: `con, round ${r}` });
  }
  await l.submit(k.judge, { seat: "judge", kind: "decision", body: "ship #459 first" });
  return { k, l, entries: l.entries, head: await l.head() };
}

/** What an entry is, for readable assertions: its kind, or its system subkind. */
export function kindOf(entry: Entry | UnchainedEntry): string {
  return entry.kind === "system" ? entry.subkind : entry.kind;
}

/** A deep copy, so a test can tamper without touching the fixture. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Recomputes leaf and link of every entry in order, as a lying relay would; seqs are kept. */
export function rechain(entries: readonly (Entry | UnchainedEntry)[]): Entry[] {
  let prev = GENESIS_LINK;
  return entries.map((entry) => {
    const { leaf: _l, link: _k, ...unchained } = entry as Entry;
    const chained = chainEntry(unchained as UnchainedEntry, prev);
    prev = chained.link;
    return chained;
  });
}

/** The items with the entries at the given seqs replaced by their leaf hashes only. */
export function hide(entries: readonly Entry[], seqs: readonly number[]): (Entry | HiddenEntry)[] {
  return entries.map((e) => (seqs.includes(e.seq) ? { seq: e.seq, leaf: e.leaf } : e));
}

/** A head over the last of `entries`, signed by `relay`. */
export function headOver(relay: Signer, entries: readonly Entry[], at = entries.length, table?: string): Promise<SignedHead> {
  const entry = entries[at - 1]!;
  return signHead(relay, { table: table ?? entry.table, seq: entry.seq, link: entry.link });
}

/** The export text of a ledger with the header naming `relay`. */
export function exportOf(relay: Signer, items: readonly (Entry | HiddenEntry)[], heads: readonly SignedHead[], table = "t-459"): string {
  return exportText({ table, relay: relay.publicKeyText }, items, heads);
}

/**
 * An authored entry built by hand as a misbehaving relay would record it: a genuine seat
 * signature over the submission, any seq and ts, no policy check.
 */
export async function handSigned(
  seatKey: Signer,
  input: Omit<SubmissionInput, "table" | "nonce"> & { nonce?: string; table?: string },
  at: { seq: number; ts: number },
): Promise<UnchainedEntry> {
  const request = await signSubmission(seatKey, {
    table: "t-459",
    nonce: nonceOf(`hand:${input.seat}:${at.seq}`),
    ...input,
  } as SubmissionInput);
  return { ...request.submission, seq: at.seq, ts: at.ts, author: { key: seatKey.publicKeyText, sig: request.sig } } as UnchainedEntry;
}
