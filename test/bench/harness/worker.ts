/**
 * The bench relay's Worker entry (never deployed): the production Worker and Durable Objects, each
 * object class metered (meter.ts: its SQLite rows from the storage API's own cursor counts, the
 * requests it is billed for), and three extra routes to read it: `GET /__bench/meter/:table`
 * (`{ rows_written, rows_read, statements }` of one table object since that route last read it),
 * `GET /__bench/objects` (every object's cumulative meter, by binding and name),
 * `GET /__bench/worker` (`{ requests }`: the Worker's own requests so far, WebSocket upgrades
 * included, these routes not), and `GET /__bench/crypto` (which Ed25519 implementation the isolate uses).
 */
import app from "../../../worker/index.js";
import { TableDO as ProductionTableDO } from "../../../durable-objects/table/table.js";
import { RelayDO as ProductionRelayDO } from "../../../durable-objects/relay/relay.js";
import { OwnerDO as ProductionOwnerDO } from "../../../durable-objects/owner/owner.js";
import { ChatDirectoryDO as ProductionChatDirectoryDO } from "../../../durable-objects/chat-directory/directory.js";
import { InviteDirectoryDO as ProductionInviteDirectoryDO } from "../../../durable-objects/invites/directory.js";
import { CounterDO as ProductionCounterDO } from "../../../durable-objects/counters/counters.js";
import { ed25519 } from "../../../src/protocol/signing/crypto.js";
import { countedEnv, metered, readObject, readObjects } from "./meter.js";

// Every production Durable Object, metered under the class name wrangler.toml binds.
export const TableDO = metered(ProductionTableDO, "TABLES");
export const RelayDO = metered(ProductionRelayDO, "RELAY");
export const OwnerDO = metered(ProductionOwnerDO, "OWNERS");
export const ChatDirectoryDO = metered(ProductionChatDirectoryDO, "CHAT_DIRECTORY");
export const InviteDirectoryDO = metered(ProductionInviteDirectoryDO, "INVITES");
export const CounterDO = metered(ProductionCounterDO, "COUNTERS");

/** Cursor counts of one table object's SQL since the meter was last read. */
export interface Meter {
  rows_written: number;
  rows_read: number;
  statements: number;
}

const lastRead = new Map<string, Meter>();
/** Requests the Worker answered (billed one each), the bench's own routes left out. */
let workerRequests = 0;

/** One table's rows since this route last read it. */
function tableMeter(table: string): Meter {
  const now = readObject("TABLES", table) ?? { rows_written: 0, rows_read: 0, statements: 0 };
  const before = lastRead.get(table) ?? { rows_written: 0, rows_read: 0, statements: 0 };
  lastRead.set(table, { rows_written: now.rows_written, rows_read: now.rows_read, statements: now.statements });
  return {
    rows_written: now.rows_written - before.rows_written,
    rows_read: now.rows_read - before.rows_read,
    statements: now.statements - before.statements,
  };
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const path = new URL(request.url).pathname;
    const match = /^\/__bench\/meter\/([a-z0-9._-]+)$/.exec(path);
    if (match) return Response.json(tableMeter(match[1]!));
    if (path === "/__bench/objects") return Response.json(readObjects());
    if (path === "/__bench/worker") return Response.json({ requests: workerRequests });
    if (path === "/__bench/crypto") return Response.json({ ed25519: (await ed25519()).name });
    workerRequests += 1;
    return app.fetch(request, countedEnv(env), ctx);
  },
};
