/**
 * HTTP plumbing shared by the routes: bounded JSON bodies (Content-Type required, size capped,
 * parsed as inbound JSON, docs/SPEC.md §2.1 and §6), table stubs addressed only by valid ids, and
 * DO results unwrapped.
 */
import type { Context } from "hono";
import { TrestleError } from "../src/protocol/errors.js";
import { parseInboundJson } from "../src/protocol/encoding/inbound-json.js";
import { LIMITS } from "../src/protocol/limits/limits.js";
import { TableIdSchema } from "../src/protocol/schemas/primitives.js";
import { unwrap, type Result } from "../durable-objects/result.js";
import { tableObject } from "../durable-objects/stubs.js";

/** Hono context for this app. */
export type AppContext = Context<{ Bindings: Env }>;

/**
 * The request body as inbound JSON (§2.1): requires application/json and strict UTF-8, at most
 * `limit` bytes (LIMITS.request_bytes unless a route allows more; E_TOO_LARGE); no duplicate keys,
 * only safe integers (E_NOT_CANONICAL).
 */
export async function readJson(c: AppContext, limit: number = LIMITS.request_bytes): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new TrestleError("E_SCHEMA", "send Content-Type: application/json");
  const bytes = await readBytes(c, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new TrestleError("E_SCHEMA", "the body is not valid UTF-8");
  }
  return parseInboundJson(text);
}

/**
 * How much of a body past its limit the relay still reads, and drops, before answering 413: a
 * Worker cannot send `Connection: close` (workerd sets that header itself, and drops the one a
 * Worker sends), so the body is read to its end, leaving the connection clean for the client's
 * next request; past this much the relay stops reading and workerd closes the connection.
 */
export const DISCARD_BYTES = 1024 * 1024;

/** The raw request body, at most `limit` bytes (webhook signatures cover these exact bytes); a larger one is E_TOO_LARGE, answered after reading at most DISCARD_BYTES past `limit`. */
export async function readBytes(c: AppContext, limit: number = LIMITS.request_bytes): Promise<Uint8Array> {
  const declared = Number(c.req.header("content-length") ?? "0");
  const body = c.req.raw.body;
  if (!body) throw new TrestleError("E_SCHEMA", "the request has no body");
  const reader = body.getReader();
  if (declared > limit + DISCARD_BYTES) {
    await reader.cancel();
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size <= limit) chunks.push(value);
    else if (size > limit + DISCARD_BYTES) {
      await reader.cancel();
      break;
    }
  }
  if (size > limit) throw tooLarge(limit);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) (bytes.set(chunk, offset), (offset += chunk.byteLength));
  return bytes;
}

function tooLarge(limit: number): TrestleError {
  return new TrestleError("E_TOO_LARGE", `request bodies are limited to ${limit} bytes`);
}

/** The DO stub for a table id; a malformed id is E_TABLE_NOT_FOUND without touching any object. */
export function tableStub(c: AppContext, id: string) {
  if (!TableIdSchema.safeParse(id).success) throw new TrestleError("E_TABLE_NOT_FOUND", `"${id}" is not a table id`);
  return tableObject(c.env, id);
}

/** A DO result as a JSON response (status `status` on success). */
export function json<T>(c: AppContext, result: Result<T>, status: 200 | 201 = 200): Response {
  return c.json(unwrap(result) as object, status);
}

/** A non-negative integer query parameter, or `fallback` when absent. */
export function intParam(c: AppContext, name: string, fallback: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]{1,15}$/.test(raw))
    throw new TrestleError("E_SCHEMA", `query parameter "${name}" must be a non-negative integer`);
  return Number(raw);
}

/** The signed path of this request: pathname plus query string, exactly as sent. */
export function signedPath(c: AppContext): string {
  const url = new URL(c.req.url);
  return url.pathname + url.search;
}
