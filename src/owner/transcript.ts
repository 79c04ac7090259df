/**
 * The verified transcript the guards judge by (docs/ROOMS.md): the room's export as this seat may
 * read it, verified against the pinned relay key and every head this client holds (so a served
 * prefix of a ledger this client saw longer is REFUTED as truncation), folded into the room's
 * state when every entry is visible. The seat's owner key, which signs mandates and gate answers,
 * is taken from here: the ledger, not a file an agent could swap.
 */
import type { Reader, TableClient } from "../client/index.js";
import { fold, isEntry, ownerKeyOf, type Entry, type TableState, type VerifyReport } from "../protocol/index.js";

/** A transcript as the guards use it. */
export interface Transcript {
  report: VerifyReport;
  /** The entries the reader may read (all of them in a room without visibility rules). */
  entries: Entry[];
  /** The folded state when the transcript is not REFUTED and every entry was readable; else null. */
  state: TableState | null;
}

/**
 * Reads and verifies the table's export as `reader`. A REFUTED export that caught the relay (a fork
 * or truncation, evidence kept in the home) is E_FORK, as every later call against that relay is:
 * the guards never see it as a mere unverified transcript (E_GATE).
 */
export async function readTranscript(client: TableClient, reader: Reader): Promise<Transcript> {
  const { report, parsed } = await client.exportLedger(reader);
  if (report.verdict === "REFUTED") client.tracker.assertClean();
  if (!parsed.ok) return { report, entries: [], state: null };
  const entries = parsed.view.items.filter(isEntry);
  const whole = report.verdict !== "REFUTED" && entries.length === parsed.view.items.length && entries.length > 0;
  return { report, entries, state: whole ? fold(entries) : null };
}

/** The public key of `seat`'s owner as the transcript records it (the config's owner or the party that joined it), or undefined. */
export function seatOwnerKey(transcript: Transcript, seat: string): string | undefined {
  const { state, entries } = transcript;
  if (state) {
    const owner = Object.hasOwn(state.seats, seat) ? state.seats[seat]!.owner : undefined;
    return owner === undefined ? undefined : ownerKeyOf(state, owner);
  }
  const joined = entries
    .filter((e) => e.kind === "system" && e.subkind === "seat_joined" && e.data.join.seat === seat)
    .at(-1);
  if (!joined || joined.kind !== "system" || joined.subkind !== "seat_joined") return undefined;
  if (joined.data.join.owner_key !== undefined) return joined.data.join.owner_key;
  const opened = entries[0];
  const owners =
    opened && opened.kind === "system" && opened.subkind === "table_opened" ? opened.data.config.owners : {};
  return Object.hasOwn(owners, joined.data.join.owner) ? owners[joined.data.join.owner]!.public_key : undefined;
}
