/**
 * The usual way into a table from Node: pin the relay (trust on first use, pins.ts), then open a
 * TableClient that keeps its newest verified head in the trestle home, so a later process still
 * catches a relay that rolls the table back or forks it. The owner's chat-channel requests
 * (OwnerClient) go to a relay pinned the same way.
 */
import type { Signer } from "../protocol/index.js";
import { FileHeadStore } from "./head-store.js";
import { PinStore, pinRelay } from "./pins.js";
import { HttpClient } from "./http.js";
import { trestleHome } from "./home.js";
import { OwnerClient } from "./owner.js";
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
  const { http, home, clock, relayKey, maxEntries } = await pinned(options);
  return TableClient.open({ http, table: options.table, relayKey, maxEntries, store: new FileHeadStore(home, clock) });
}

/** Options for openOwner: openTable's, with the owner key instead of a table. */
export type OpenOwnerOptions = Omit<OpenTableOptions, "table"> & { signer: Signer };

/** An OwnerClient signing with `signer`, for a relay pinned (now, on first use) or checked against its pin: E_RELAY_KEY when its key changed. */
export async function openOwner(options: OpenOwnerOptions): Promise<OwnerClient> {
  const { http, clock } = await pinned(options);
  return new OwnerClient(http.url, options.signer, { now: clock, http });
}

async function pinned(
  options: Omit<OpenTableOptions, "table">,
): Promise<{ http: HttpClient; home: string; clock: Clock; relayKey: string; maxEntries: number }> {
  const clock = options.clock ?? systemClock;
  const http = typeof options.relay === "string" ? new HttpClient({ url: options.relay, clock }) : options.relay;
  const home = options.home ?? trestleHome();
  const { relayKey, firstUse, maxEntries } = await pinRelay(http, new PinStore(home), clock);
  if (firstUse) options.onFirstUse?.(http.url, relayKey);
  return { http, home, clock, relayKey, maxEntries };
}
