/**
 * The table as a C2SP transparency log (docs/SPEC.md §12, decision 0395): its checkpoint as a
 * signed note by the relay key (with the cosignatures the relay keeps for exactly that checkpoint),
 * its hash tiles and, for public tables, its entry bundles. The checkpoint is as open as the head
 * (GET /tables/:id/head); tiles and bundles are read as the ledger is (public-read.ts, or a signed read).
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { leafData } from "../../../src/protocol/ledger/chain.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { checkpointOf, formatCheckpoint, tableOrigin } from "../../../src/protocol/tlog/checkpoint.js";
import { ed25519NoteSigner, signNoteText } from "../../../src/protocol/tlog/note.js";
import {
  encodeEntryBundle,
  ENTRY_BUNDLE_MAX_ENTRY_BYTES,
  parseTilePath,
  TILE_WIDTH,
} from "../../../src/protocol/tlog/tiles.js";
import type { ReadAuth, TableContext } from "../context.js";
import { requirePublic } from "./public-read.js";
import { hasTable } from "../storage/schema.js";

/** What the object answers a tile path with: the bytes, whether they never change (a full tile) and whether anyone may read them. */
export interface TileBody {
  bytes: Uint8Array;
  immutable: boolean;
  public: boolean;
}

/** The host this table's origin names: the one recorded first (meta `tlog_host`), recording `seen` when none is. */
export function originHost(sql: SqlStorage, seen?: string): string | undefined {
  const row = sql.exec("SELECT value FROM meta WHERE key = 'tlog_host'").toArray()[0];
  if (row) return String(row.value);
  if (seen === undefined) return undefined;
  sql.exec("INSERT INTO meta (key, value) VALUES ('tlog_host', ?)", seen);
  return seen;
}

/** The checkpoint note text (unsigned) of the tree now, under `host`'s origin. */
export function checkpointText(t: TableContext, host: string): string {
  const state = t.requireState();
  return formatCheckpoint(checkpointOf(tableOrigin(host, state.table), t.ledger.seq, t.ledger.tree.root()));
}

/** The signed checkpoint note of the tree now, followed by every kept cosignature of exactly this checkpoint. E_MIRROR on a mirror: its log is its relay's. */
export async function signedCheckpoint(t: TableContext, requestHost: string): Promise<string> {
  const state = t.requireState();
  if (t.replica.mirror)
    throw new TrestleError(
      "E_MIRROR",
      `this relay holds table ${state.table} as a mirror of relay ${state.relay}: read its checkpoint there`,
      { relay: state.relay },
    );
  const host = originHost(t.storage.sql, requestHost) ?? requestHost;
  const text = checkpointText(t, host);
  const note = await signNoteText(text, [ed25519NoteSigner(tableOrigin(host, state.table), await t.signer())]);
  const lines = hasTable(t.storage.sql, "tlog_cosignatures")
    ? t.storage.sql.exec("SELECT line FROM tlog_cosignatures WHERE checkpoint = ? ORDER BY witness", text).toArray()
    : [];
  return note + lines.map((r) => `${String(r.line)}\n`).join("");
}

/** A hash tile or an entry bundle at `path` (`tile/...`), after the same read check as the ledger's; E_SCHEMA for a malformed path, E_NOT_FOUND past the tree. */
export async function readTile(t: TableContext, path: string, auth: ReadAuth): Promise<TileBody> {
  const state = t.requireState();
  const tile = parseTilePath(path);
  const open = isPublic(state);
  if (!open) await t.reader(auth);
  const immutable = tile.width === TILE_WIDTH;
  if (tile.level !== "entries") return { bytes: t.ledger.tree.tile(tile), immutable, public: open };
  requirePublic(state);
  return { bytes: entryBundle(t, tile.index, tile.width), immutable, public: true };
}

/** Entries index·256+1 … +width as a bundle of their leaf data (JCS without leaf and link); E_TOO_LARGE when one is past 65535 bytes (decision 0395). */
function entryBundle(t: TableContext, index: number, width: number): Uint8Array {
  const from = index * TILE_WIDTH + 1;
  if (from + width - 1 > t.ledger.seq)
    throw new TrestleError(
      "E_NOT_FOUND",
      `the table has ${t.ledger.seq} entries; bundle ${index} of width ${width} is past them`,
    );
  const data = t.ledger.range(from, from + width - 1, width).map(leafData);
  const big = data.findIndex((d) => d.length > ENTRY_BUNDLE_MAX_ENTRY_BYTES);
  if (big >= 0)
    throw new TrestleError(
      "E_TOO_LARGE",
      `entry ${from + big} is ${data[big]!.length} bytes, past the ${ENTRY_BUNDLE_MAX_ENTRY_BYTES} an entry bundle can hold; read it from /entries or the export`,
      { seq: from + big },
    );
  return encodeEntryBundle(data);
}

function isPublic(state: TableState): boolean {
  return state.config.public === true && state.config.parent === undefined;
}
