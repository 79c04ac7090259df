/**
 * The pages a replica is fed (docs/SPEC.md §8.4; anyone may send them): each one must be a
 * verified extension of the chain it holds, ending at a head signed by the relay holding custody
 * there (src/protocol/ledger/replica-verify.ts); entries it holds already may be sent again and
 * must be the same, judged by their leaves recomputed from their content. A page that contradicts
 * its chain under that relay's own signature is a fork: the evidence is kept and every later page
 * refused with it. Any other page that does not verify is E_REFUTED, stores nothing, and is
 * recorded among the mirror's newest refusals, which stop nothing (decision 0330). Its entries go
 * into the ordinary ledger (so reads, sockets and wakes work as for any table), its head into the
 * replica's storage (replica.ts).
 */
import { GENESIS_LINK } from "../../../src/protocol/ledger/chain.js";
import { verifyHeadSignature } from "../../../src/protocol/signing/head.js";
import { exportLineBytes } from "../../../src/protocol/ledger/export.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { forkEvidence } from "../../../src/protocol/ledger/replica-fork.js";
import { EMPTY_TIP, heldDifference, verifyExtension } from "../../../src/protocol/ledger/replica-verify.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import { ReplicaPageSchema, type ReplicaPage } from "../../../src/protocol/schemas/replica.js";
import { Refuted } from "../../../src/protocol/ledger/verify.js";
import { checkpointText } from "../storage/checkpoint.js";
import { deletedError } from "../storage/tombstone.js";
import type { CreateClaim } from "./writes.js";
import type { TableContext } from "../context.js";

/**
 * Accepts a page into the replica; returns the entries it appended (none when it held them all
 * already). The page that starts a mirror counts it as a table opened by its creator's key
 * (`claim`, as a create does: E_QUOTA, E_RATE_LIMITED), undone when the page is then not stored.
 * Throws E_SCHEMA, E_TABLE_EXISTS, E_REFUTED (recorded at a mirror) or E_FORK (evidence kept).
 */
export async function acceptPage(t: TableContext, body: unknown, claim: CreateClaim): Promise<Entry[]> {
  if (t.burial) throw deletedError(t.burial.tombstone);
  const page = parseOrThrow(ReplicaPageSchema, body, "replica page");
  const state = t.state;
  if (state && !t.replica.mirror) {
    throw new TrestleError("E_TABLE_EXISTS", `table ${state.table} is held by this relay itself, not mirrored here`, {
      relay: state.relay,
    });
  }
  const kept = t.replica.evidence()[0];
  if (kept)
    throw new TrestleError(
      "E_FORK",
      `this mirror caught relay ${kept.evidence.heads[0]!.relay} forking the table and follows it no further`,
      { evidence: kept.evidence },
    );
  const originals = new Map(page.originals.map((o) => [o.seq, o.body]));
  let fresh: Entry[];
  let verified;
  try {
    fresh = await newItems(t, page, originals);
    if (fresh.length === 0) return [];
    const tip = state
      ? { state, link: t.ledger.link, nonceUsed: (key: string) => t.ledger.byNonce(key) !== undefined }
      : EMPTY_TIP;
    verified = await verifyExtension(tip, { items: fresh, originals, head: page.head }, t.maxEntries);
  } catch (error) {
    if (error instanceof Refuted) throw refutation(t, error);
    throw error;
  }
  const undo = state ? null : await claimMirror(verified.state, claim);
  try {
    if (t.state !== state)
      throw new TrestleError("E_UNAVAILABLE", "another page landed meanwhile; send this one again");
    const bytes = fresh.reduce((sum, e) => sum + exportLineBytes(e, originals.get(e.seq)), 0);
    const appended = t.ledger.append(verified.entries, {
      originals: new Map([...originals].filter(([seq]) => seq > (state?.seq ?? 0))),
      checkpoint: () => checkpointText(verified.state),
      alongside: () => t.replica.record(verified.head, bytes),
    });
    t.state = verified.state;
    return appended;
  } catch (error) {
    await undo?.();
    throw error;
  }
}

/** Counts a new mirror against its creator's key, as its creation was counted where it was opened (a sub-table is counted by none, as here). */
async function claimMirror(state: TableState, claim: CreateClaim): Promise<(() => Promise<void>) | null> {
  const creator = state.config.parent === undefined ? state.config.owners[state.creator]?.public_key : undefined;
  return creator ? claim({ table: state.table, author: { key: creator } }) : null;
}

/**
 * The page's entries this replica does not hold yet, once those it holds are found the same (their
 * leaves recomputed, heldDifference) and a page of held entries only ends at a head over them. A
 * page that disagrees with the held chain is a fork when the relay's signature proves it (kept,
 * E_FORK), another table under this id when its relay is another (E_TABLE_EXISTS), else it is
 * refuted (Refuted, naming the first held entry that differs).
 */
async function newItems(t: TableContext, page: ReplicaPage, originals: ReadonlyMap<number, string>): Promise<Entry[]> {
  const held = t.state?.seq ?? 0;
  if (page.items.length === 0 && page.head.seq > held) {
    throw new TrestleError(
      "E_SCHEMA",
      `a head beyond the replica's last entry (${held}) comes with the entries up to it`,
      { seq: held },
    );
  }
  const overlap = page.items.filter((e) => e.seq <= held);
  const from = overlap[0]?.seq ?? 1;
  const mine = overlap.length > 0 ? t.ledger.range(from, held, overlap.length) : [];
  const differs = heldDifference(mine, overlap, { held: t.ledger.originals(from, held), sent: originals });
  const last = page.items[page.items.length - 1];
  const headAgrees =
    last === undefined
      ? t.ledger.linkAt(page.head.seq) === page.head.link
      : last.seq > held || (await headOverHeld(t, page.head, last.seq));
  if (!differs && headAgrees) {
    const fresh = page.items.filter((e) => e.seq > held);
    if (fresh.length > 0 && fresh[0]!.seq !== held + 1) {
      throw new TrestleError("E_SCHEMA", `a page continues the replica at entry ${held + 1}`, { seq: held });
    }
    return fresh;
  }
  const head = t.replica.newest();
  const evidence =
    head &&
    (await forkEvidence(
      {
        head,
        leafAt: (seq) => t.ledger.range(seq, seq, 1)[0]?.leaf,
        linkAt: (seq) => (seq === 0 ? GENESIS_LINK : t.ledger.linkAt(seq)),
      },
      page,
      t.now(),
    ));
  if (evidence) {
    t.replica.keep(evidence);
    throw new TrestleError("E_FORK", evidence.evidence.message, { evidence: evidence.evidence });
  }
  if (t.state && page.head.relay !== t.state.relay && page.items[0]?.seq === 1) {
    throw new TrestleError(
      "E_TABLE_EXISTS",
      `this relay mirrors another table ${t.state.table}, held by relay ${t.state.relay}`,
      { relay: t.state.relay },
    );
  }
  throw (
    differs ??
    new Refuted(
      page.head.seq,
      "the page's head is not a head of the chain this mirror holds over the page's last entry, and does not prove the relay signed another",
    )
  );
}

/** Whether `head` is over held entry `seq`: that seq, the held link there, this table, and a signature that verifies. */
async function headOverHeld(t: TableContext, head: SignedHead, seq: number): Promise<boolean> {
  return (
    head.table === t.state?.table &&
    head.seq === seq &&
    head.link === t.ledger.linkAt(seq) &&
    (await verifyHeadSignature(head))
  );
}

/**
 * E_REFUTED for a page that does not verify (`details: { seq, reason }`). At a mirror the refusal
 * is recorded first (synchronously, so it is kept though the call fails); it stops nothing.
 */
function refutation(t: TableContext, error: Refuted): TrestleError {
  const seq = error.seq !== null && error.seq > 0 ? error.seq : null;
  if (t.state) t.replica.refused({ recorded_at: t.now(), seq, reason: error.reason.slice(0, 1000) });
  return new TrestleError("E_REFUTED", `the page does not verify at entry ${seq ?? "?"}: ${error.reason}`, {
    seq,
    reason: error.reason,
  });
}
