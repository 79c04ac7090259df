/**
 * Following a table to the relay it moved to (docs/SPEC.md §8.3, §8.4). A client that holds the
 * table's head at relay A and meets it at relay B adopts nothing from B until B's whole ledger
 * verifies with A's held head in it: B's chain must name A as a past custodian (else B serves some
 * other table under that id, or tries to pass one off as A's), hold A's head where A signed it
 * (else A or B forked, kept as evidence against the table), hand the table over by a custody entry
 * its owners authorised (the policy replay checks that, so the reader must see every entry), and
 * end at a head B signed. Then B's head is held, and the move never looks like a fork.
 */
import {
  custodySpans,
  parseExport,
  TrestleError,
  type ParsedExport,
  type SignedHead,
  type VerifyReport,
} from "../protocol/index.js";
import type { HeadTracker } from "./heads.js";
import type { HttpClient, Reader } from "./http.js";
import { verifyExportText } from "./verify.js";

/** What following needs: the relay, the table, and the tracker pinned to the relay's key. */
export interface Followed {
  http: HttpClient;
  table: string;
  tracker: HeadTracker;
}

/**
 * Verifies the relay's ledger (`exported`, its export as `reader` reads it and its parse, fetched when not given)
 * against the heads this home holds for the table at past relays and adopts the relay's head;
 * returns it. Throws E_MIRROR (the relay only mirrors it), E_RELAY_KEY, E_FORBIDDEN,
 * E_BAD_RESPONSE or E_FORK (evidence kept).
 */
export async function followCustody(
  client: Followed,
  reader: Reader,
  maxEntries?: number,
  exported?: Exported,
): Promise<SignedHead> {
  const { http, table, tracker } = client;
  const text = exported?.text ?? (await http.exportText(table, reader));
  const parsed = exported?.parsed ?? parseExport(text);
  if (!parsed.ok)
    throw new TrestleError("E_BAD_RESPONSE", `the relay's export of ${table} is malformed: ${parsed.reason}`);
  const holder = mirrorHolder(parsed, tracker.relayKey);
  if (holder !== null) throw mirrorError(tracker, table, holder);
  const custodians = new Set(custodySpans(parsed.view.items).map((s) => s.relay));
  const relevant = tracker.past.filter((h) => custodians.has(h.relay));
  if (relevant.length === 0) {
    const held = tracker.past.map((h) => h.relay);
    throw new TrestleError(
      "E_RELAY_KEY",
      `this home holds table ${table} at relay ${held.join(", ")}, and relay ${tracker.relayKey} serves a table ${table} that did not come from there (no custody change from it). ` +
        "If it is another table under the same id, set the old one aside: trestle evidence --clear --table " +
        table +
        " --relay-key <that key>",
      { table, held },
    );
  }
  await tracker.loadPastEvidence(relevant.map((h) => h.relay));
  tracker.assertClean();
  const newest = parsed.view.heads.reduce<SignedHead | null>((a, h) => (a && a.seq >= h.seq ? a : h), null);
  const report = await verifyExportText(
    text,
    {
      relayKey: tracker.relayKey,
      held: [...tracker.seen, ...relevant],
      ...(maxEntries === undefined ? {} : { maxEntries }),
    },
    parsed,
  );
  if (report.verdict === "REFUTED") {
    const reason = report.refuted?.reason ?? "";
    const against = relevant.find((h) => h.seq === report.refuted?.seq);
    if (against && newest) {
      throw tracker.caught({
        kind: "fork",
        table,
        seq: against.seq,
        heads: [against, newest],
        message:
          `fork: relay ${tracker.relayKey} serves ${table} as moved from relay ${against.relay}, but its ledger does not hold that relay's head at ${against.seq}: ${reason}`.slice(
            0,
            1000,
          ),
      });
    }
    throw new TrestleError("E_BAD_RESPONSE", `the relay's ledger of ${table} does not verify: ${reason}`);
  }
  if (report.coverage.policy_replay !== "full" || !newest) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `cannot check that ${table}'s owners authorised its move: ${report.coverage.by_hash} entries are hidden from this reader; follow it as an owner`,
    );
  }
  await tracker.acceptCustody(newest);
  return newest;
}

/** An export's text as a relay served it, with its one parse. */
export interface Exported {
  text: string;
  parsed: ParsedExport;
}

/** The relay key holding the table when the export (`parsed`) comes from a relay (key `relayKey`) that only mirrors it (§8.4), else null. */
export function mirrorHolder(parsed: ParsedExport, relayKey: string): string | null {
  if (!parsed.ok) return null;
  const spans = custodySpans(parsed.view.items);
  const holder = spans[spans.length - 1]!.relay ?? parsed.header.relay;
  return holder === relayKey ? null : holder;
}

/**
 * Verifies a mirror's export against the key of the relay holding the table (`holder`), with the
 * heads and the evidence this home holds from that relay: the mirror is only a way to the holder's
 * ledger. Throws E_MIRROR when this home holds no head from the holder, so nothing vouches for its key.
 */
export async function verifyMirrored(
  client: Followed,
  { text, parsed }: Exported,
  holder: string,
  maxEntries?: number,
): Promise<VerifyReport> {
  const held = client.tracker.past.filter((h) => h.relay === holder);
  if (held.length === 0) throw mirrorError(client.tracker, client.table, holder);
  await client.tracker.loadPastEvidence([holder]);
  const context = {
    relayKey: holder,
    held,
    evidence: client.tracker.evidence,
    ...(maxEntries === undefined ? {} : { maxEntries }),
  };
  return verifyExportText(text, context, parsed);
}

function mirrorError(tracker: HeadTracker, table: string, holder: string): TrestleError {
  return new TrestleError(
    "E_MIRROR",
    `relay ${tracker.relayKey} holds table ${table} as a read-only mirror of relay ${holder}: write to that relay, or promote this mirror`,
    { relay: holder },
  );
}
