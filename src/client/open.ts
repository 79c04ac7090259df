/**
 * The usual way into a table from Node: pin the relay (trust on first use, pins.ts), then open a
 * TableClient that keeps its newest verified head in the trestle home, so a later process still
 * catches a relay that rolls the table back or forks it.
 */
import { FileHeadStore, PinStore, pinRelay } from "./pins.js";
import { HttpClient } from "./http.js";
import { trestleHome } from "./home.js";
import { systemClock, type Clock } from "./random.js";
import { TableClient } from "./table-client.js";

/** Options for openTable. */
export interface OpenTableOptions {
  /** The relay's base URL, or an HttpClient for it. */
  relay: string | HttpClient;
  table: string;
  /** The trestle home (default: trestleHome()). */
  home?: string;
  clock?: Clock;
  /** Called once when this relay URL was pinned just now (first use). */
  onFirstUse?(url: string, relayKey: string): void;
}

/** A pinned, head-keeping TableClient for `table`. */
export async function openTable(options: OpenTableOptions): Promise<TableClient> {
  const clock = options.clock ?? systemClock;
  const http = typeof options.relay === "string" ? new HttpClient({ url: options.relay, clock }) : options.relay;
  const home = options.home ?? trestleHome();
  const { relayKey, firstUse } = await pinRelay(http, new PinStore(home), clock);
  if (firstUse) options.onFirstUse?.(http.url, relayKey);
  return TableClient.open({ http, table: options.table, relayKey, store: new FileHeadStore(home) });
}
