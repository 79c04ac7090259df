/**
 * Driving a relay whose operator limits are on (test/workers/limits/): every request of one test
 * comes from one client address of its own (`CF-Connecting-IP`, which Cloudflare sets), and its
 * tables are made with owner keys of its own, so the per-address and per-owner counters of one test
 * never meet another's.
 */
import type { TableConfig } from "../../src/protocol/index.js";
import { RelayHttp, type Fetch } from "./relay-http.js";
import { seatedDebate } from "./seated.js";
import { cast, type Cast } from "./table-fixture.js";

/** `fetch` with every request sent as from client `address`. */
export function fromAddress(fetch: Fetch, address: string): Fetch {
  return (url, init = {}) =>
    fetch(url, {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init.headers).entries()), "cf-connecting-ip": address },
    });
}

/** A test's own client: its fetch, a RelayHttp over it, and its own cast of keys. */
export interface Client {
  fetch: Fetch;
  relay: RelayHttp;
  k: Cast;
}

/** The client of test `label` at `address`. */
export async function clientAt(fetch: Fetch, address: string, label: string): Promise<Client> {
  const addressed = fromAddress(fetch, address);
  return { fetch: addressed, relay: new RelayHttp(addressed), k: await cast(label) };
}

/** An open table `id` (anyone may write, ends on a decision) with bot-tao, bot-jenny and judge seated, made by the client's ops. */
export function openTable(client: Client, id: string, overrides: Partial<TableConfig> = {}): Promise<Cast> {
  return seatedDebate(
    client.relay,
    id,
    { topology: { kind: "open" }, termination: { any: ["decision"] }, ...overrides },
    client.k,
  );
}
