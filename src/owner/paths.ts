/**
 * Where the owner's private files for one seat at one table live, under the trestle home beside
 * keys, pins and heads (docs/ROOMS.md): `mandates/<table>/<seat>.json` (owner-signed) and
 * `private/<table>/<seat>.jsonl` (the journal), with `private/<table>/<seat>.spent/` holding one
 * empty file per spent gate approval. Table and seat names are checked by the protocol's schemas,
 * so each is one path segment.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseOrThrow, SeatNameSchema, TableIdSchema } from "../protocol/index.js";

/** The private files of `seat` at `table`. */
export interface SeatFiles {
  mandate: string;
  journal: string;
  spent: string;
}

/** The files of `seat` at `table` in trestle home `home`; names the protocol refuses are E_SCHEMA. */
export function seatFiles(home: string, table: string, seat: string): SeatFiles {
  const t = parseOrThrow(TableIdSchema, table, "table");
  const s = parseOrThrow(SeatNameSchema, seat, "seat");
  return {
    mandate: join(home, "mandates", t, `${s}.json`),
    journal: join(home, "private", t, `${s}.jsonl`),
    spent: join(home, "private", t, `${s}.spent`),
  };
}

/** Whether `seat` at `table` has a mandate file in `home` (then every write of the seat goes through the guards). */
export function hasMandateFile(home: string, table: string, seat: string): boolean {
  return existsSync(seatFiles(home, table, seat).mandate);
}
