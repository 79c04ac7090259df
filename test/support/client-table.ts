/**
 * Client-side fixtures for Node tests against a real relay: a TableClient pinned to the relay's
 * key, and a debate table (#459/#461 cast) created and seated through the client library itself.
 */
import { HttpClient, TableClient, type HeadStore } from "../../src/client/index.js";
import type { TableConfig } from "../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "./table-fixture.js";

let counter = 0;

/**
 * A table id unique to this run and test file. The process id is written in base 36: in decimal it
 * put numbers like 3000 into ids, which tests that check an amount never shows (a mandate's secret
 * cap) then found in the id (it happened in a whole run whose worker was pid 3000).
 */
export function uniqueTable(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid.toString(36)}-${counter}-${Date.now().toString(36)}`.slice(0, 64);
}

/** A TableClient for `table` at `url`, pinned to the key the relay serves. */
export async function tableClient(url: string, table: string, store?: HeadStore): Promise<TableClient> {
  const http = new HttpClient({ url });
  const relayKey = (await http.wellKnown()).relay_key;
  return TableClient.open({ http, table, relayKey, ...(store ? { store } : {}) });
}

/** Creates a debate table through `client` and seats bot-tao, bot-jenny and judge. */
export async function seatDebate(client: TableClient, overrides: Partial<TableConfig> = {}): Promise<Cast> {
  const k = await cast();
  await client.create(k.ops, "ops", debateConfig(k, { id: client.table, ...overrides }));
  const expires = Date.now() + 60_000;
  for (const [owner, ownerName, seat, key] of [
    [k.tao, "tao", "bot-tao", k.botTao],
    [k.jenny, "jenny", "bot-jenny", k.botJenny],
    [k.ops, "ops", "judge", k.judge],
  ] as const) {
    await client.join(owner, { seat, owner: ownerName, seatKey: key.publicKeyText, card: { summary: seat }, expires });
  }
  return k;
}
