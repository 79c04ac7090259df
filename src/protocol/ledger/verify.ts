/**
 * Offline verification of a ledger (docs/SPEC.md §8.2). Input is attacker-controlled: every check
 * runs on untrusted entries and heads. The chain (leaves, links), every recorded signature, the
 * heads (against the pinned relay key and the custody spans, verify-heads.ts), nonce uniqueness,
 * and a full policy replay: the relay's own `admit` run again over the ledger must produce exactly
 * the entries it recorded. The steps are exported for replicas, which verify a ledger's extension
 * from where their verified chain ends (replica-verify.ts).
 */
import { linkOf, GENESIS_LINK } from "./chain.js";
import { canonicalize, jsonEqual } from "../encoding/canonical.js";
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";
import { textSha256, type HashFunction } from "../encoding/hash.js";
import { maxChars } from "../policy/admit-authored.js";
import { cutText } from "../encoding/text.js";
import { admit } from "../policy/admit.js";
import { cloneState, type TableState } from "../policy/state.js";
import type { Entry, EntryDraft } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type { SignedHead } from "../schemas/head.js";
import type { Coverage, VerifyReport } from "../schemas/verify.js";
import type { TableConfig } from "../schemas/config.js";
import { nonceKeyOf } from "../signing/statements.js";
import { checkEntries, recordedStatements, type EntryCheck, type EntryChecker } from "./entry-check.js";
import { checkHeads } from "./verify-heads.js";

/** A ledger as a reader holds it: entries by content or by hash, in seq order, plus heads. */
export interface LedgerView {
  table?: string;
  /** The relay key the view claims (an export header's); must match the ledger and heads. */
  relay?: string;
  /** Original bodies of truncated entries, by seq, where the reader has them. */
  originals?: ReadonlyMap<number, string>;
  items: readonly (Entry | HiddenEntry)[];
  /** Each item's canonical JSON text where the reader has it and it is exactly canonicalize(item) (an export line's entry; null where not): leaves are hashed from it, not written again. */
  texts?: readonly (string | null)[];
  heads: readonly SignedHead[];
}

/** Verification options: the relay key the reader pinned, if any. */
export interface VerifyOptions {
  relayKey?: string;
  /** The relay's published ledger limit (its /.well-known/trestle.json `entries`); default LIMITS.entries. */
  maxEntries?: number;
  /** Who does each entry's leaf hash and signature checks (default `checkEntries`, here); a Node caller may spread them over threads. */
  checker?: EntryChecker;
  /** The SHA-256 of the links (default the protocol's own); a caller may pass its runtime's native one. */
  sha256?: HashFunction;
}

/** A refutation at `seq` (null: the input as a whole), with the reason; every check throws it. */
export class Refuted extends Error {
  constructor(
    readonly seq: number | null,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Whether an item is a full entry (not only its leaf hash). */
export function isEntry(item: Entry | HiddenEntry): item is Entry {
  return "kind" in item;
}

/** Coverage before anything was checked. */
export function emptyCoverage(entries: number, options: VerifyOptions): Coverage {
  return {
    entries,
    by_content: 0,
    by_hash: 0,
    signatures: 0,
    heads: 0,
    truncated_checked: 0,
    truncated_unchecked: 0,
    head_seq: null,
    relay_key_pinned: options.relayKey !== undefined,
    policy_replay: "skipped",
  };
}

/** Verifies a ledger view; never throws for bad input, reports it. */
export async function verifyLedger(view: LedgerView, options: VerifyOptions = {}): Promise<VerifyReport> {
  const coverage = emptyCoverage(view.items.length, options);
  const first = view.items[0];
  const table = view.table ?? (first && isEntry(first) ? first.table : null);
  const report = (verdict: VerifyReport["verdict"], extra: Partial<VerifyReport> = {}): VerifyReport => ({
    verdict,
    table,
    last_seq: view.items.length,
    unchecked: [],
    coverage,
    ...extra,
  });
  try {
    // The checker has every window before the replay starts, so the replay runs while it checks;
    // its outcome is judged only after the chain, signatures, nonces, originals and heads passed,
    // so the report names what it named when the replay ran last.
    const chained = checkChainAndSignatures(view, table, coverage, undefined, options.checker, options.sha256);
    chained.catch(() => undefined); // awaited below; never an unhandled rejection while the replay runs
    const replay =
      view.items.length > 0 && view.items.every(isEntry)
        ? outcomeOf(() => replayPolicy(view.items as readonly Entry[], options.maxEntries ?? LIMITS.entries))
        : null;
    const links = await chained;
    checkNonces(view);
    checkOriginals(view, coverage);
    const context = {
      table,
      items: view.items,
      heads: view.heads,
      ...(view.relay === undefined ? {} : { relay: view.relay }),
      ...(options.relayKey === undefined ? {} : { relayKey: options.relayKey }),
    };
    await checkHeads(context, links, coverage, (seq, reason) => new Refuted(seq, reason));
    if (replay) {
      if (replay.failed) throw replay.error;
      coverage.policy_replay = "full";
    }
    const unchecked = uncheckedParts(view, coverage);
    return report(unchecked.length === 0 ? "CLEAN" : "INCONCLUSIVE", { unchecked });
  } catch (error) {
    if (error instanceof Refuted) return report("REFUTED", { refuted: { seq: error.seq, reason: error.reason } });
    throw error;
  }
}

/** What running `run` came to: done, or the error it threw (kept to be thrown when its turn comes). */
function outcomeOf(run: () => unknown): { failed: false } | { failed: true; error: unknown } {
  try {
    run();
    return { failed: false };
  } catch (error) {
    return { failed: true, error };
  }
}

/** Items per window: each window's full entries are checked (leaf, signatures) off the chain's path while the chain is checked in order. */
const CHECK_WINDOW = 256;

/** Where a chain check starts: after entry `seq` (0: before entry 1), whose link is `link`. */
export interface ChainStart {
  seq: number;
  link: string;
}

/**
 * The chain and the signatures, window by window: every window's full entries go to `checker`
 * at once (leaf hashes and signature checks; a checker with several threads is then never idle
 * while the chain and the policy replay run here), each window's chain is checked in
 * order against those leaves, then its signatures are judged in ledger order, so the report names
 * the first bad entry whichever checker ran. The items continue the chain after `from`. Returns
 * each item's link.
 */
export async function checkChainAndSignatures(
  view: Pick<LedgerView, "items" | "texts">,
  table: string | null,
  coverage: Coverage,
  from: ChainStart = { seq: 0, link: GENESIS_LINK },
  checker: EntryChecker = checkEntries,
  hash?: HashFunction,
): Promise<string[]> {
  const chain = { links: [] as string[], prev: from.link, hash };
  const seatKeys = new Map<string, string>();
  const windows: (Entry | HiddenEntry)[][] = [];
  for (let start = 0; start < view.items.length; start += CHECK_WINDOW)
    windows.push(view.items.slice(start, start + CHECK_WINDOW));
  const pending = windows.map((window, w) => {
    const texts = view.texts
      ?.slice(w * CHECK_WINDOW, w * CHECK_WINDOW + window.length)
      .filter((_, i) => isEntry(window[i]!));
    const checks = checker(window.filter(isEntry), texts);
    checks.catch(() => undefined); // awaited below; never an unhandled rejection if the chain is refuted first
    return checks;
  });
  for (let w = 0; w < windows.length; w += 1) {
    const window = windows[w]!;
    const checks = await pending[w]!;
    let next = 0;
    const checked = window.map((item) => (isEntry(item) ? checks[next++]! : null));
    window.forEach((item, i) =>
      checkLink(item, from.seq + w * CHECK_WINDOW + i + 1, table, chain, coverage, checked[i]?.leaf),
    );
    window.forEach((item, i) => {
      if (!isEntry(item)) return;
      const bad = checked[i]!.signatures.indexOf(false);
      if (bad >= 0)
        throw new Refuted(item.seq, `the ${recordedStatements(item)[bad]!.purpose} signature does not verify`);
      coverage.signatures += checked[i]!.signatures.length;
      checkSeatKey(item, seatKeys);
    });
  }
  return chain.links;
}

function checkLink(
  item: Entry | HiddenEntry,
  seq: number,
  table: string | null,
  chain: { links: string[]; prev: string; hash: HashFunction | undefined },
  coverage: Coverage,
  computed: string | undefined,
): void {
  if (item.seq !== seq)
    throw new Refuted(seq, `expected entry ${seq}, found ${item.seq} (reordered, missing or duplicated)`);
  let leaf = item.leaf;
  if (isEntry(item)) {
    coverage.by_content += 1;
    if (item.table !== table) throw new Refuted(seq, `entry belongs to table "${item.table}", not "${table}"`);
    leaf = computed!;
    if (leaf !== item.leaf) throw new Refuted(seq, "content does not match its leaf hash (altered)");
  } else {
    coverage.by_hash += 1;
  }
  const link = linkOf(chain.prev, leaf, chain.hash);
  if (isEntry(item) && link !== item.link) throw new Refuted(seq, "link does not follow from the previous entry");
  chain.links.push(link);
  chain.prev = link;
}

/** An authored entry must be signed by the key that holds its seat (seats as joined so far). */
function checkSeatKey(item: Entry, seatKeys: Map<string, string>): void {
  if (item.kind === "system" && item.subkind === "seat_joined")
    seatKeys.set(item.data.join.seat, item.data.join.seat_key);
  if (item.kind === "system" && item.subkind === "table_opened") {
    for (const { join } of item.data.parent?.joins ?? []) seatKeys.set(join.seat, join.seat_key);
  }
  if (
    item.kind !== "system" &&
    item.kind !== "approval" &&
    seatKeys.has(item.seat) &&
    seatKeys.get(item.seat) !== item.author.key
  ) {
    throw new Refuted(item.seq, `signed by a key that does not hold seat "${item.seat}"`);
  }
}

/** Each nonce is used once: within the items, and not already by the ledger before them (`used`). */
export function checkNonces(view: Pick<LedgerView, "items">, used: (key: string) => boolean = () => false): void {
  const seen = new Set<string>();
  for (const item of view.items) {
    if (!isEntry(item)) continue;
    const key = nonceKeyOf(item as EntryDraft);
    if (key === null) continue;
    if (seen.has(key) || used(key)) throw new Refuted(item.seq, "a nonce is used twice (replayed statement)");
    seen.add(key);
  }
}

/** A truncated entry's original must hash to what the seat signed and cut to exactly the stored body (the table's `config`: its entry 1's). */
export function checkOriginals(
  view: Pick<LedgerView, "items" | "originals">,
  coverage: Coverage,
  config: TableConfig | null = configOf(view),
): void {
  const max = config ? maxChars(config) : 0;
  for (const item of view.items) {
    if (!isEntry(item) || item.kind === "system" || item.kind === "approval" || !item.truncated) continue;
    const original = view.originals?.get(item.seq);
    if (original === undefined || config === null) {
      coverage.truncated_unchecked += 1;
      continue;
    }
    if (textSha256(original) !== item.truncated.body_sha256 || original.length !== item.truncated.chars) {
      throw new Refuted(item.seq, "the original body does not match the hash the seat signed");
    }
    if (cutText(original, max) !== item.body)
      throw new Refuted(item.seq, "the truncated body is not the cut of the original");
    coverage.truncated_checked += 1;
  }
}

/** The table's config as its first entry (table_opened) holds it, or null when the view does not start there. */
export function configOf(view: Pick<LedgerView, "items">): TableConfig | null {
  const first = view.items[0];
  return first && isEntry(first) && first.kind === "system" && first.subkind === "table_opened"
    ? first.data.config
    : null;
}

/**
 * Re-runs the policy from `state` (null: before entry 1): each entry not caused by an earlier one
 * is admitted again, and what admit produces must be exactly the ledger's next entries. Returns
 * the state after the last entry (a fresh one: `state` is left as it was).
 */
export function replayPolicy(
  entries: readonly Entry[],
  maxEntries: number,
  start: TableState | null = null,
): TableState | null {
  let state: TableState | null = start && cloneState(start);
  const first = entries[0] ? entries[0].seq - 1 : 0;
  let i = 0;
  while (i < entries.length) {
    const entry = entries[i]!;
    const { seq: _s, ts: _t, leaf: _l, link: _k, ...draft } = entry;
    let admitted;
    try {
      // The replay's state is its own: admit may change it in place (a refusal ends the replay).
      admitted = admit(state, draft as EntryDraft, entry.ts, maxEntries, true);
    } catch (error) {
      if (!(error instanceof TrestleError)) throw error;
      throw new Refuted(entry.seq, `policy would refuse this entry: ${error.code} (${error.message})`);
    }
    for (const produced of admitted.entries) {
      const recorded = entries[produced.seq - 1 - first];
      if (!recorded)
        throw new Refuted(produced.seq, `the ledger lacks the ${describe(produced)} that entry ${entry.seq} causes`);
      const { leaf: _l2, link: _k2, ...unchained } = recorded;
      if (!jsonEqual(unchained, produced)) {
        throw new Refuted(
          produced.seq,
          `policy replay expected ${describe(produced)}, the ledger has ${describe(recorded)}`,
        );
      }
    }
    state = admitted.state;
    i += admitted.entries.length;
  }
  return state;
}

function describe(entry: { kind: string; subkind?: string; data?: unknown }): string {
  return entry.kind === "system" ? `system ${entry.subkind} ${canonicalize(entry.data)}` : `${entry.kind} entry`;
}

function uncheckedParts(view: LedgerView, coverage: Coverage): string[] {
  const out: string[] = [];
  if (view.items.length === 0) out.push("the ledger is empty");
  if (!coverage.relay_key_pinned) out.push("the relay key is not pinned, so heads prove nothing about who signed them");
  if (coverage.head_seq === null) out.push("no relay-signed head covers the ledger");
  else if (coverage.head_seq < view.items.length)
    out.push(`entries after ${coverage.head_seq} are not covered by a signed head`);
  if (coverage.truncated_unchecked > 0) {
    out.push(`${coverage.truncated_unchecked} truncated bodies were not checked against their originals`);
  }
  if (coverage.by_hash > 0)
    out.push(`${coverage.by_hash} entries were checked by hash only, so the policy replay was skipped`);
  return out;
}
