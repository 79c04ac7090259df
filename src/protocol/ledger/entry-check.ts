/**
 * The order-free part of verifying a ledger (docs/SPEC.md §8.2): each full entry's leaf hash
 * recomputed from its content, and each signature it records checked. Nothing here depends on
 * other entries, so a caller may run it on several threads at once (the Node client does,
 * src/client/verify-pool.ts); verify.ts judges the results in ledger order, whoever computed them.
 */
import { leafOf, leafOfCanonical } from "./chain.js";
import { sha256, type HashFunction } from "../encoding/hash.js";
import { verifyStatement, type Ed25519, type RecordedStatement } from "../signing/crypto.js";
import { custodyStatementsOf } from "../signing/custody.js";
import { dealStatementsOf } from "../signing/deal.js";
import type { Entry, EntryDraft } from "../schemas/entry.js";
import { statementOf } from "../signing/statements.js";
import { embeddedStatementsOf } from "../signing/subtable-statements.js";
import { marketStatementsOf } from "../signing/market.js";

/** The order-free work on one full entry: its recomputed leaf hash, and for each statement it records (`recordedStatements`) whether its signature verifies. */
export interface EntryCheck {
  leaf: string;
  signatures: boolean[];
}

/**
 * Checks a window of full entries, one EntryCheck each in the same order; `texts[i]`, where given
 * and not null, is exactly canonicalize(entries[i]) (an export line's entry), whose leaf is then
 * hashed from it (leafOfCanonical). Any implementation must compute exactly what `checkEntries` computes.
 */
export type EntryChecker = (entries: readonly Entry[], texts?: readonly (string | null)[]) => Promise<EntryCheck[]>;

/**
 * The reference checker, in this thread, hashing leaves and bodies with `hash` (a native SHA-256 where the
 * caller has one) and verifying with `ed` (default the runtime's choice, `ed25519()`: WebCrypto
 * verifies off the calling thread, on Node's thread pool, workerd's or the browser's).
 */
export function entryChecker(hash: HashFunction = sha256, ed?: Ed25519): EntryChecker {
  return (entries, texts) =>
    Promise.all(
      entries.map(async (entry, i) => {
        const text = texts?.[i];
        return {
          leaf: (text ? leafOfCanonical(text, hash) : null) ?? leafOf(entry),
          signatures: await Promise.all(
            recordedStatements(entry, hash).map((r) => verifyStatement(r.key, r.purpose, r.statement, r.sig, ed)),
          ),
        };
      }),
    );
}

/** The reference checker with the protocol's own SHA-256. */
export const checkEntries: EntryChecker = entryChecker();

/** The statements a full entry records: its own (its body hashed with `hash`) and any it carries (a sub-table's carried joins, a custody change's owners and past head, a deal_sign's owner signature, a match room's market head, a recorded deal's owner signatures). */
export function recordedStatements(item: Entry, hash: HashFunction = sha256): RecordedStatement[] {
  const draft = item as EntryDraft;
  const primary = statementOf(draft, hash);
  return [
    ...(primary ? [primary] : []),
    ...embeddedStatementsOf(draft),
    ...custodyStatementsOf(draft),
    ...dealStatementsOf(draft),
    ...marketStatementsOf(draft),
  ];
}
