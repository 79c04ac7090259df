/**
 * Checking a ledger's relay heads (docs/SPEC.md §8.2, §8.4): every head must verify, commit to this
 * ledger's chain (a different link is a fork, a seq past its end a truncation), and be signed by
 * the relay that held custody at its seq: the relay table_opened names up to the first custody
 * entry, each custody entry's new relay from that entry on. A head by a past relay after it handed
 * the table over is a second chain; a head by a relay before it took the table over is refused too.
 * Each custody entry carries the past relay's head over the last entry it ordered, which must sit
 * exactly there on this chain; the coverage names the entries only a past key attests.
 */
import { custodySpans, isCustody, spanAt, type CustodySpan } from "../signing/custody.js";
import { verifyHeadSignature } from "../signing/head.js";
import type { Entry } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type { SignedHead } from "../schemas/head.js";
import type { Coverage } from "../schemas/verify.js";

/** What a head check needs from the view and the caller. */
export interface HeadContext {
  table: string | null;
  items: readonly (Entry | HiddenEntry)[];
  heads: readonly SignedHead[];
  /** The relay key an export header names: the relay holding custody at its end. */
  relay?: string;
  /** The relay key the caller pinned: one that held the table. */
  relayKey?: string;
}

/** A refutation at `seq` (null: the whole input); verify.ts reports it. */
export type Refute = (seq: number | null, reason: string) => Error;

/** Checks every head (the view's and those custody entries carry) against the chain `links` and the custody spans; fills `coverage`. */
export async function checkHeads(
  context: HeadContext,
  links: readonly string[],
  coverage: Coverage,
  refute: Refute,
): Promise<void> {
  const spans = custodySpans(context.items);
  checkCustodyEntries(context, spans, links, refute);
  const known = spans.every((s) => s.relay !== null);
  const current = spans[spans.length - 1]!.relay;
  if (context.relayKey !== undefined && known && !spans.some((s) => s.relay === context.relayKey)) {
    throw refute(
      1,
      spans.length === 1
        ? "the table records a relay key other than the pinned one"
        : "the pinned relay key never held this table",
    );
  }
  if (context.relay !== undefined && current !== null && context.relay !== current) {
    throw refute(1, "the export names a relay key the table does not record");
  }
  const carried = context.items.filter(isCustody).map((c) => c.data.head);
  const pastSeq = new Map<CustodySpan, number>();
  for (const head of [...context.heads, ...carried]) {
    if (!(await verifyHeadSignature(head))) throw refute(head.seq, "a head's signature does not verify");
    const span = spanAt(spans, head.seq);
    const wrong = wrongKey(head, span, spans, context);
    if (wrong) throw refute(head.seq, wrong);
    if (head.table !== context.table) throw refute(head.seq, `a head is for table "${head.table}"`);
    const link = links[head.seq - 1];
    if (link === undefined)
      throw refute(
        head.seq,
        `truncated: the relay signed a head at ${head.seq} but the ledger ends at ${links.length}`,
      );
    if (link !== head.link) throw refute(head.seq, "fork: a signed head disagrees with this ledger's chain");
    coverage.heads += 1;
    coverage.head_seq = Math.max(coverage.head_seq ?? 0, head.seq);
    pastSeq.set(span, Math.max(pastSeq.get(span) ?? 0, head.seq));
  }
  if (spans.length > 1) {
    coverage.past_keys = spans
      .slice(0, -1)
      .map((s) => ({ relay: s.relay ?? "", from: s.from, to: s.to ?? s.from, head_seq: pastSeq.get(s) ?? null }));
  }
}

/** Why `head` may not attest its seq, or null: it must be signed by the relay holding custody there (`span`). */
function wrongKey(
  head: SignedHead,
  span: CustodySpan,
  spans: readonly CustodySpan[],
  context: HeadContext,
): string | null {
  if (span.relay === null || spans.length === 1) return legacyWrongKey(head, span.relay, context);
  if (head.relay === span.relay) return null;
  const held = spans.filter((s) => s.relay === head.relay);
  if (held.some((s) => s.to !== null && s.to < head.seq)) {
    const handed = held.find((s) => s.to !== null && s.to < head.seq)!;
    return `a second chain: relay ${head.relay} handed the table over at entry ${(handed.to ?? 0) + 1} but signed a head at ${head.seq}`;
  }
  if (held.length > 0)
    return `relay ${head.relay} signed a head at ${head.seq}, before it took custody at entry ${held[0]!.from}`;
  return "a head is signed by a key the table does not record";
}

/** A table that never changed custody: the head must be by the pinned key, the export's key and the key the table records. */
function legacyWrongKey(head: SignedHead, recorded: string | null, context: HeadContext): string | null {
  if (context.relayKey !== undefined && head.relay !== context.relayKey)
    return "a head is signed by a key other than the pinned relay key";
  if (context.relay !== undefined && head.relay !== context.relay)
    return "a head is signed by a key the export does not name";
  if (recorded !== null && head.relay !== recorded) return "a head is signed by a key the table does not record";
  return null;
}

/** Each custody entry passes the table from the relay holding it, with that relay's head over exactly the entry before. */
function checkCustodyEntries(
  context: HeadContext,
  spans: readonly CustodySpan[],
  links: readonly string[],
  refute: Refute,
): void {
  spans.forEach((span, i) => {
    if (span.custody === null) return;
    const entry = context.items[span.custody - 1];
    if (!entry || !isCustody(entry)) return;
    const before = spans[i - 1]!.relay;
    if (before !== null && entry.data.from !== before)
      throw refute(entry.seq, `custody passes from relay ${entry.data.from}, but relay ${before} held the table`);
    checkPastHead(entry, links[entry.seq - 2], refute);
  });
}

/** A custody entry's past head is its `from` relay's, over the entry right before it, whose link is `link`. */
export function checkPastHead(
  entry: Extract<Entry, { subkind: "custody" }>,
  link: string | undefined,
  refute: Refute,
): void {
  const { from, head } = entry.data;
  if (head.relay !== from || head.seq !== entry.seq - 1 || head.link !== link) {
    throw refute(entry.seq, "the custody entry's past head is not the past relay's head over the entry before it");
  }
}
