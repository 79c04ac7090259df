/**
 * What the public viewer shows of a market (docs/VIEW.md "A public market"): its board
 * (src/text/market-board.ts), folded by the policy's own code from the entries the page verified,
 * and only those: up to the entry a REFUTED verdict names (exclusive), and up to the first entry the
 * export hid. Null when the ledger is not a market's. Pure: no DOM, no clock.
 */
import {
  applyEntry,
  isEntry,
  openedState,
  type Entry,
  type HiddenEntry,
  type TableState,
  type VerifyReport,
} from "../../../src/protocol/index.js";
import { marketBoard, type MarketBoard } from "../../../src/text/market-board.js";

/** A market's board as far as it was verified: `through` is the last entry it is folded from. */
export interface VerifiedBoard {
  board: MarketBoard;
  through: number;
}

/** The board of the market whose ledger `items` are (entry 1 first), folded up to what `report` did not refute, as of `now`; null when it is no market's ledger, nothing of it stands, or the fold cannot apply an entry (a verifier would refute it). */
export function verifiedBoard(
  items: readonly (Entry | HiddenEntry)[],
  report: VerifyReport,
  now: number,
): VerifiedBoard | null {
  const first = items[0];
  const limit = report.verdict === "REFUTED" ? (report.refuted?.seq ?? 1) - 1 : items.length;
  if (
    limit < 1 ||
    !first ||
    !isEntry(first) ||
    first.kind !== "system" ||
    first.subkind !== "table_opened" ||
    first.data.config.market === undefined
  )
    return null;
  const state: TableState = openedState(first);
  const folded: Entry[] = [first];
  for (const item of items.slice(1, limit)) {
    if (!isEntry(item)) break;
    try {
      applyEntry(state, item);
    } catch {
      return null;
    }
    folded.push(item);
  }
  return state.market ? { board: marketBoard(state, state.market, folded, now), through: folded.length } : null;
}
