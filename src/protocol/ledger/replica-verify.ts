/**
 * Verifying an extension of a ledger a replica already verified (docs/SPEC.md §8.4): the same
 * checks as `verifyLedger` (chain, every recorded signature, nonces, originals, the policy replayed
 * with `admit` so it reproduces every caused entry, custody entries' past heads), run only over the
 * new entries from the replica's folded state and last link, so following a table costs the size
 * of each extension, never of the whole ledger. The extension must end at a head signed by the
 * relay holding custody there. Entries the replica holds already may come again and must be the
 * same, judged by their recomputed leaves. Input is attacker-controlled: anyone may feed a replica.
 * A seat following its table live extends its own verified transcript with the same checks
 * (`extendLedger`), its heads judged by its socket.
 */
import { GENESIS_LINK, leafOf } from "./chain.js";
import { isCustody } from "../signing/custody.js";
import { verifyHeadSignature } from "../signing/head.js";
import type { TableState } from "../policy/state.js";
import type { Entry } from "../schemas/entry.js";
import type { SignedHead } from "../schemas/head.js";
import type { Coverage } from "../schemas/verify.js";
import type { HashFunction } from "../encoding/hash.js";
import type { EntryChecker } from "./entry-check.js";
import {
  checkChainAndSignatures,
  checkNonces,
  checkOriginals,
  emptyCoverage,
  Refuted,
  replayPolicy,
} from "./verify.js";
import { checkPastHead } from "./verify-heads.js";

/** Where a replica's verified ledger ends: its folded state (null before entry 1), the link of its last entry, and the nonces it used. */
export interface ReplicaTip {
  state: TableState | null;
  link: string;
  nonceUsed(key: string): boolean;
}

/** An extension that verified: the state after it, its entries and their links, and the head that covers it. */
export interface VerifiedExtension {
  state: TableState;
  entries: Entry[];
  links: string[];
  head: SignedHead;
}

/** The tip of an empty replica. */
export const EMPTY_TIP: ReplicaTip = { state: null, link: GENESIS_LINK, nonceUsed: () => false };

/** An extension whose entries verified, before any head is judged: the state after it, its links, and what was checked (truncated bodies without an original are counted unchecked). */
export interface ExtendedLedger {
  state: TableState;
  links: string[];
  coverage: Coverage;
}

/**
 * Checks `items` (full entries from the tip's next seq on, at least one) as `verifyLedger` checks
 * a ledger, from the tip's state and link: the chain, every recorded signature, nonces, the
 * `originals` of truncated bodies (one without its original is refuted with `requireOriginals`, else
 * counted unchecked), the policy replayed, custody entries' past heads; throws Refuted naming the
 * first bad entry. `checker` checks the leaves and signatures and `hash` hashes the links, as in
 * `checkChainAndSignatures` (defaults: the protocol's own). No head is judged here: a replica's extension must end at one (verifyExtension),
 * a live reader's is covered by the heads its socket follows (src/owner/live-transcript.ts).
 */
export async function extendLedger(
  tip: ReplicaTip,
  items: readonly Entry[],
  o: {
    originals: ReadonlyMap<number, string>;
    requireOriginals: boolean;
    maxEntries: number;
    checker?: EntryChecker;
    hash?: HashFunction;
  },
): Promise<ExtendedLedger> {
  const seq = tip.state?.seq ?? 0;
  if (items.length === 0) throw new Refuted(seq + 1, "an extension carries at least one entry");
  const table = tip.state?.table ?? items[0]!.table;
  const coverage = emptyCoverage(items.length, {});
  const links = await checkChainAndSignatures({ items }, table, coverage, { seq, link: tip.link }, o.checker, o.hash);
  checkNonces({ items }, (key) => tip.nonceUsed(key));
  const opened = items[0]!.kind === "system" && items[0]!.subkind === "table_opened" ? items[0]!.data.config : null;
  checkOriginals({ items, originals: o.originals }, coverage, tip.state?.config ?? opened);
  if (o.requireOriginals && coverage.truncated_unchecked > 0) {
    const missing = items.find(
      (e) => e.kind !== "system" && e.kind !== "approval" && e.truncated && !o.originals.has(e.seq),
    )!;
    throw new Refuted(missing.seq, "a replica keeps the original of every truncated body, and this one is missing");
  }
  const state = replayPolicy(items, o.maxEntries, tip.state)!;
  for (const entry of items.filter(isCustody)) {
    const before = entry.seq - 1 === seq ? tip.link : links[entry.seq - 2 - seq];
    checkPastHead(entry, before, (at, reason) => new Refuted(at, reason));
  }
  coverage.policy_replay = "full";
  return { state, links, coverage };
}

/**
 * Verifies `items` (full entries from the tip's next seq on, at least one) with the `originals` of
 * the truncated ones, ending at `head`; throws Refuted naming the first bad entry. `maxEntries` is
 * the ledger limit the policy replay judges with (this relay's).
 */
export async function verifyExtension(
  tip: ReplicaTip,
  page: { items: readonly Entry[]; originals: ReadonlyMap<number, string>; head: SignedHead },
  maxEntries: number,
): Promise<VerifiedExtension> {
  const { items, head } = page;
  const table = tip.state?.table ?? items[0]?.table;
  const { state, links } = await extendLedger(tip, items, {
    originals: page.originals,
    requireOriginals: true,
    maxEntries,
  });
  const last = items[items.length - 1]!;
  if (head.table !== table || head.seq !== last.seq || head.link !== links[links.length - 1]) {
    throw new Refuted(head.seq, `an extension ends at a head over its last entry (${last.seq}) of this chain`);
  }
  if (head.relay !== state.relay)
    throw new Refuted(
      head.seq,
      `the head is not signed by relay ${state.relay}, which holds the table at entry ${head.seq}`,
    );
  if (!(await verifyHeadSignature(head))) throw new Refuted(head.seq, "a head's signature does not verify");
  return { state, entries: [...items], links, head };
}

/**
 * The first way `sent` (a page's entries at seqs the replica holds, in page order) differs from
 * `held` (the held entries from the first of those seqs on), or null when they are the same. Each
 * sent entry's leaf is recomputed from its content, never read from the page, and its `leaf` and
 * `link` fields must be the held entry's; an original the page carries for a held seq must be the
 * one held (`originals.held`, by seq).
 */
export function heldDifference(
  held: readonly Entry[],
  sent: readonly Entry[],
  originals: { held: ReadonlyMap<number, string>; sent: ReadonlyMap<number, string> },
): Refuted | null {
  for (const [i, entry] of sent.entries()) {
    const mine = held[i];
    if (!mine || mine.seq !== entry.seq)
      return new Refuted(
        entry.seq,
        `the page repeats held entries out of order (entry ${entry.seq} where ${mine?.seq ?? "none"} is held)`,
      );
    const leaf = leafOf(entry);
    if (leaf !== mine.leaf)
      return new Refuted(
        entry.seq,
        `the page changes held entry ${entry.seq}: its content hashes to leaf ${leaf}, the held entry's leaf is ${mine.leaf}`,
      );
    if (entry.leaf !== mine.leaf || entry.link !== mine.link)
      return new Refuted(
        entry.seq,
        `the page gives held entry ${entry.seq} another leaf or link than the held chain's`,
      );
    const original = originals.sent.get(entry.seq);
    if (original !== undefined && original !== originals.held.get(entry.seq))
      return new Refuted(entry.seq, `the page gives held entry ${entry.seq} another original body than the one held`);
  }
  return null;
}
