/**
 * Telling a fork from a bad page at a mirror (docs/SPEC.md §8.4). A page that disagrees with the
 * chain a mirror holds is evidence against the relay it follows only when that relay's own
 * signature proves it: the page's head verifies under the same key as the mirror's held head, and
 * the page's entries, chained from the mirror's own link before them, reach that head's link. Then
 * the relay signed two chains that part at the first entry where the leaves differ, and the
 * evidence (both heads, and the other chain's leaves from there) convinces anyone who holds the
 * mirror's ledger. Anything else is only a page that does not verify: whoever sent it may have
 * altered it, so it proves nothing about the relay.
 */
import { leafOf, linkOf } from "./chain.js";
import { verifyHeadSignature } from "../signing/head.js";
import type { Entry } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type { SignedHead } from "../schemas/head.js";
import type { MirrorEvidence } from "../schemas/replica.js";

/** The chain a mirror holds: its newest head (over its last entry), and its leaves and links by seq. */
export interface HeldChain {
  head: SignedHead;
  leafAt(seq: number): string | undefined;
  /** The link after entry `seq` (the genesis link for 0). */
  linkAt(seq: number): string | undefined;
}

/** The evidence a page proves against the held chain's relay, or null when it proves none (it agrees, or it proves nothing). */
export async function forkEvidence(
  held: HeldChain,
  page: { items: readonly Entry[]; head: SignedHead },
  now: number,
): Promise<MirrorEvidence | null> {
  const { head } = page;
  const tip = held.head.seq;
  if (head.relay !== held.head.relay || head.table !== held.head.table || !(await verifyHeadSignature(head)))
    return null;
  const from = page.items[0]?.seq ?? head.seq + 1;
  let link = held.linkAt(from - 1);
  if (link === undefined || page.items.some((e, i) => e.seq !== from + i || e.table !== head.table)) return null;
  const leaves: HiddenEntry[] = [];
  for (const item of page.items) {
    const leaf = leafOf(item);
    if (leaf !== item.leaf) return null;
    link = linkOf(link, leaf);
    leaves.push({ seq: item.seq, leaf });
  }
  if (page.items.length > 0 && (head.seq !== from + page.items.length - 1 || link !== head.link)) return null;
  if (page.items.length === 0) {
    const mine = head.seq <= tip ? held.linkAt(head.seq) : undefined;
    return mine === undefined || mine === head.link ? null : evidence(held.head, head, head.seq, [], now);
  }
  const parted = leaves.find((l) => l.seq <= tip && held.leafAt(l.seq) !== l.leaf);
  return parted
    ? evidence(
        held.head,
        head,
        parted.seq,
        leaves.filter((l) => l.seq >= parted.seq),
        now,
      )
    : null;
}

function evidence(held: SignedHead, seen: SignedHead, seq: number, branch: HiddenEntry[], now: number): MirrorEvidence {
  return {
    recorded_at: now,
    evidence: {
      kind: "fork",
      table: held.table,
      seq,
      heads: [held, seen],
      message: `fork: relay ${held.relay} signed a head at ${seen.seq} on a chain that leaves the one its head at ${held.seq} commits to, at entry ${seq}`,
    },
    branch,
  };
}
