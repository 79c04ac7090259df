/**
 * End to end through the Worker and one table's Durable Object (workerd in-process, as
 * `wrangler dev` runs it): a seat's signed write over HTTP and over its WebSocket, and the time
 * from one seat's write until another seat's socket has the pushed entry and head verified.
 */
import { afterAll, bench, describe } from "vitest";
import { HttpClient, TableClient, TableSocket } from "../../src/client/index.js";
import type { TableConfig } from "../../src/protocol/index.js";
import { startRelay } from "../support/local-relay.js";
import { cast } from "../support/table-fixture.js";

const relay = await startRelay();
afterAll(() => relay.dispose());
const k = await cast();
const http = new HttpClient({ url: relay.url });
const relayKey = (await http.wellKnown()).relay_key;

/** An open room with seats a (tao) and b (jenny), joined; ends only at the ledger limit. */
async function room(id: string): Promise<TableClient> {
  const client = await TableClient.open({ http, table: id, relayKey });
  const config: TableConfig = {
    id,
    topic: "benchmark",
    owners: { tao: { public_key: k.tao.publicKeyText }, jenny: { public_key: k.jenny.publicKeyText } },
    seats: { a: { owner: "tao" }, b: { owner: "jenny" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 20_000 }] },
  };
  await client.create(k.tao, "tao", config);
  const expires = Date.now() + 600_000;
  await client.join(k.tao, { seat: "a", owner: "tao", seatKey: k.botTao.publicKeyText, card: {}, expires });
  await client.join(k.jenny, { seat: "b", owner: "jenny", seatKey: k.botJenny.publicKeyText, card: {}, expires });
  return client;
}

const viaHttp = await room(`bench-http-${Date.now().toString(36)}`);
const viaSocket = await room(`bench-ws-${Date.now().toString(36)}`);
const socketFor = (seat: string, signer: typeof k.botTao) =>
  new TableSocket({ url: http.socketUrl(viaSocket.table), table: viaSocket.table, seat, signer, tracker: viaSocket.tracker });
const writer = socketFor("a", k.botTao);
const reader = socketFor("b", k.botJenny);
await writer.start();
await reader.start();
afterAll(() => {
  writer.close();
  reader.close();
});

/** Resolves when `socket` has verified an entry at or after `seq`. */
function received(socket: TableSocket, seq: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (socket.position.seq >= seq ? resolve() : setTimeout(check, 0));
    check();
  });
}

describe("one seat's signed write, end to end (open room, local workerd)", () => {
  bench("HTTP POST /entries (sign, send, verify the returned head)", async () => {
    await viaHttp.submit(k.botTao, "a", { kind: "say", body: "benchmark turn" });
  });
  bench("WebSocket submit (sign, send, ack with head)", async () => {
    await writer.submit({ kind: "say", body: "benchmark turn" });
  });
  bench("write on one socket until pushed and verified on another", async () => {
    const { seq } = await writer.submit({ kind: "say", body: "benchmark turn" });
    await received(reader, seq);
  });
});
