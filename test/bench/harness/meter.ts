/**
 * The bench relay's meter (never deployed): what every Durable Object of the isolate is asked and
 * writes, kept in this isolate's memory, for the bench to read at `/__bench/objects`. Requests are
 * counted where Cloudflare bills them (docs/SELF-HOST.md "The free plan's quotas"): each call on an
 * object's stub (an RPC method or `fetch`, one request each) is counted at the caller, by wrapping
 * the namespaces of every `env` the Worker and the objects are given; each WebSocket message an
 * object receives and each alarm it runs are counted in the object. Rows come from the storage
 * API's own cursor counts (`rowsWritten`, `rowsRead`, index writes included, as billed), plus one
 * row per key the key-value API puts or deletes; alarms set are counted apart.
 */

/** What one object was asked and wrote, cumulative since the relay started. */
export interface ObjectMeter {
  /** The namespace binding (TABLES, COUNTERS, OWNERS, ...) and the name the object was addressed by. */
  binding: string;
  name: string;
  /** Stub calls by method name (`fetch` included): one billed request each. */
  calls: Record<string, number>;
  /** WebSocket messages the object received (billed 20 to 1) and alarms it ran (one request each). */
  ws_in: number;
  alarms: number;
  rows_written: number;
  rows_read: number;
  statements: number;
  /** Keys put or deleted through the key-value API (a row each), and alarms set or deleted. */
  kv_writes: number;
  alarm_sets: number;
  /** Rows written by statement (its first words, whitespace collapsed): what the rows are. */
  written_by: Record<string, number>;
}

interface Live extends ObjectMeter {
  cursors: { cursor: SqlStorageCursor<Record<string, SqlStorageValue>>; query: string }[];
}

/** The words a statement is counted under: its first 60 characters, whitespace collapsed. */
function statementName(query: string): string {
  return query.replace(/\s+/g, " ").trim().slice(0, 60);
}

const objects = new Map<string, Live>();
const names = new Map<string, { binding: string; name: string }>();

function meterOf(binding: string, id: string): Live {
  const key = `${binding}:${id}`;
  let m = objects.get(key);
  if (!m) {
    const named = names.get(id);
    m = {
      binding,
      name: named?.name ?? id,
      calls: {},
      ws_in: 0,
      alarms: 0,
      rows_written: 0,
      rows_read: 0,
      statements: 0,
      kv_writes: 0,
      alarm_sets: 0,
      written_by: {},
      cursors: [],
    };
    objects.set(key, m);
  }
  return m;
}

/** Every object's meter, cursors drained into the totals first. */
export function readObjects(): ObjectMeter[] {
  return [...objects.values()].map((m) => {
    for (const { cursor, query } of m.cursors.splice(0)) {
      m.rows_written += cursor.rowsWritten;
      m.rows_read += cursor.rowsRead;
      m.statements += 1;
      if (cursor.rowsWritten > 0) m.written_by[query] = (m.written_by[query] ?? 0) + cursor.rowsWritten;
    }
    const { cursors: _cursors, ...out } = m;
    return {
      ...out,
      calls: { ...out.calls },
      written_by: { ...out.written_by },
      name: names.get(out.name)?.name ?? out.name,
    };
  });
}

/** The meter of the object `binding` addresses as `name`, drained, or undefined when it never ran. */
export function readObject(binding: string, name: string): ObjectMeter | undefined {
  return readObjects().find((m) => m.binding === binding && m.name === name);
}

/** `stub` of the object `id` addresses, each of its calls counted against that object. */
function countedStub(binding: string, id: DurableObjectId, stub: DurableObjectStub): DurableObjectStub {
  const m = () => meterOf(binding, id.toString());
  return new Proxy(stub, {
    get(s, method) {
      const value = Reflect.get(s, method) as unknown;
      if (typeof method !== "string" || method === "id" || method === "name" || typeof value !== "function")
        return value;
      return (...args: unknown[]) => {
        const calls = m().calls;
        calls[method] = (calls[method] ?? 0) + 1;
        // Reflect.apply: an RPC stub answers any property, `apply` too, as a remote call.
        return Reflect.apply(value as (...a: unknown[]) => unknown, s, args);
      };
    },
  });
}

/** A namespace whose ids remember their names and whose stubs, by id (`get`) or by name (`getByName`, durable-objects/stubs.ts), count each call against the object they address. */
function countedNamespace(binding: string, ns: DurableObjectNamespace): DurableObjectNamespace {
  return new Proxy(ns, {
    get(target, prop) {
      if (prop === "idFromName") {
        return (name: string) => {
          const id = target.idFromName(name);
          names.set(id.toString(), { binding, name });
          return id;
        };
      }
      if (prop === "get") {
        return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) =>
          countedStub(binding, id, target.get(id, options));
      }
      if (prop === "getByName") {
        return (name: string, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
          const stub = target.getByName(name, options);
          names.set(stub.id.toString(), { binding, name });
          return countedStub(binding, stub.id, stub);
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `env` with every Durable Object namespace counted (the same object for the same `env`). */
const wrapped = new WeakMap<object, Env>();
export function countedEnv(env: Env): Env {
  let out = wrapped.get(env);
  if (out) return out;
  const bound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) {
    const isNamespace =
      typeof value === "object" && value !== null && typeof (value as DurableObjectNamespace).idFromName === "function";
    bound[key] = isNamespace ? countedNamespace(key, value as DurableObjectNamespace) : value;
  }
  out = bound as unknown as Env;
  wrapped.set(env, out);
  return out;
}

type ObjectClass = new (ctx: DurableObjectState, env: Env) => object;

/**
 * `Base` metered: its SQL cursors kept for counting, its key-value writes and alarms set counted,
 * its env's namespaces counted, and each WebSocket message and alarm it runs counted, all against
 * the object as `binding` addresses it.
 */
export function metered<C extends ObjectClass>(Base: C, binding: string): C {
  const Metered = class extends (Base as ObjectClass) {
    constructor(...args: unknown[]) {
      const [ctx, env] = args as [DurableObjectState, Env];
      const m = meterOf(binding, ctx.id.toString());
      const storage = ctx.storage;
      const sql = storage.sql;
      const exec = sql.exec.bind(sql);
      sql.exec = ((query: string, ...bindings: unknown[]) => {
        const cursor = exec(query, ...bindings);
        m.cursors.push({ cursor, query: statementName(query) });
        return cursor;
      }) as typeof sql.exec;
      const put = storage.put.bind(storage) as (...a: unknown[]) => Promise<void>;
      storage.put = ((key: unknown, ...rest: unknown[]) => {
        m.kv_writes += typeof key === "string" ? 1 : Object.keys(key as object).length;
        return put(key, ...rest);
      }) as typeof storage.put;
      const del = storage.delete.bind(storage) as (...a: unknown[]) => Promise<unknown>;
      storage.delete = ((key: unknown, ...rest: unknown[]) => {
        m.kv_writes += typeof key === "string" ? 1 : (key as unknown[]).length;
        return del(key, ...rest);
      }) as typeof storage.delete;
      for (const name of ["setAlarm", "deleteAlarm"] as const) {
        const original = storage[name].bind(storage) as (...a: unknown[]) => Promise<void>;
        (storage as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
          m.alarm_sets += 1;
          return original(...a);
        };
      }
      super(ctx, countedEnv(env));
    }
  };
  const proto = Metered.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const base = Base.prototype as unknown as Record<string, ((...a: unknown[]) => unknown) | undefined>;
  const count = (self: unknown, field: "ws_in" | "alarms") => {
    const ctx = (self as { ctx: DurableObjectState }).ctx;
    meterOf(binding, ctx.id.toString())[field] += 1;
  };
  if (base.webSocketMessage) {
    proto.webSocketMessage = function (this: unknown, ...a: unknown[]) {
      count(this, "ws_in");
      return base.webSocketMessage!.apply(this, a);
    };
  }
  if (base.alarm) {
    proto.alarm = function (this: unknown, ...a: unknown[]) {
      count(this, "alarms");
      return base.alarm!.apply(this, a);
    };
  }
  Object.defineProperty(Metered, "name", { value: Base.name });
  return Metered as unknown as C;
}
