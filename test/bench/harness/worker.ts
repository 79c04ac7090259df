/**
 * The bench relay's Worker entry (never deployed): the production Worker and Durable Objects,
 * with a meter on each table object's SQLite so the bench reads rows written and read from the
 * storage API's own cursor counts (`rowsWritten`, `rowsRead`), and one extra route to read it:
 * `GET /__bench/meter/:table` (`{ rows_written, rows_read, statements }` since the last read), and
 * `GET /__bench/crypto` (which Ed25519 implementation the isolate uses).
 */
import app from "../../../worker/index.js";
import { TableDO as ProductionTableDO } from "../../../durable-objects/table/table.js";
import { ed25519 } from "../../../src/protocol/signing/crypto.js";

// Every production Durable Object, except TableDO, which the metered class below shadows.
export * from "../../../worker/index.js";

/** Cursor counts of one table object's SQL since the meter was last read. */
export interface Meter {
  rows_written: number;
  rows_read: number;
  statements: number;
}

/** The production TableDO, its `storage.sql.exec` wrapped to keep every cursor for counting. */
export class TableDO extends ProductionTableDO {
  private readonly cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[];

  constructor(ctx: DurableObjectState, env: Env) {
    const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
    const sql = ctx.storage.sql;
    const exec = sql.exec.bind(sql);
    sql.exec = ((query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...bindings);
      cursors.push(cursor);
      return cursor;
    }) as typeof sql.exec;
    super(ctx, env);
    this.cursors = cursors;
  }

  /** Rows written and read (index writes included, as billed) since the last call. */
  meter(): Meter {
    const taken = this.cursors.splice(0);
    return {
      rows_written: taken.reduce((sum, c) => sum + c.rowsWritten, 0),
      rows_read: taken.reduce((sum, c) => sum + c.rowsRead, 0),
      statements: taken.length,
    };
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const match = /^\/__bench\/meter\/([a-z0-9._-]+)$/.exec(new URL(request.url).pathname);
    // This entry binds TABLES to the metered class above (wrangler.toml's class_name TableDO).
    const tables = env.TABLES as unknown as DurableObjectNamespace<TableDO>;
    if (match) return Response.json(await tables.get(tables.idFromName(match[1]!)).meter());
    if (new URL(request.url).pathname === "/__bench/crypto") return Response.json({ ed25519: (await ed25519()).name });
    return app.fetch(request, env, ctx);
  },
};
