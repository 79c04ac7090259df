/**
 * RFC 8785 JSON Canonicalization Scheme, restricted to the trestle profile: integers only
 * (safe integers), plain objects and arrays, strings, booleans and null. Anything else
 * (undefined, NaN, Infinity, bigint, non-integer numbers, class instances, functions, symbols)
 * is refused with E_NOT_CANONICAL rather than silently changed.
 */
import { utf8 } from "./bytes.js";
import { TrestleError } from "../errors.js";

/** JSON values the trestle profile can canonicalize. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** RFC 8785 canonical text of `value`; throws E_NOT_CANONICAL for anything outside the profile. */
export function canonicalize(value: unknown): string {
  return write(value, [], new Set());
}

/** UTF-8 bytes of the canonical text of `value`. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8(canonicalize(value));
}

/**
 * The value `text` holds when `text` is exactly its canonical JSON, else undefined: what
 * `canonicalize(JSON.parse(text)) === text` says (never throwing), mostly without writing it again.
 * The native writer emits members in property order, so when its output is `text`, every
 * object's keys are in canonical order and every number is a safe integer, `text` is canonical; a
 * `\ud800`-`\udfff` escape (how it writes a lone surrogate) or any other difference is left to
 * `canonicalize` (an object whose integer-like keys JavaScript orders first, for one).
 */
export function parseCanonical(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (JSON.stringify(value) === text && !ESCAPED_SURROGATE.test(text) && sortedIntegral(value)) return value;
  try {
    return canonicalize(value) === text ? value : undefined;
  } catch {
    return undefined;
  }
}

/** How JSON.stringify writes a surrogate (lone ones only; paired ones it writes as they are). */
const ESCAPED_SURROGATE = /\\ud[89a-f]/;

/** Whether every object in a parsed JSON value has its keys in RFC 8785 order (UTF-16 code units) and every number is a safe integer. */
function sortedIntegral(value: unknown): boolean {
  if (typeof value === "number") return Number.isSafeInteger(value);
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) return value.every(sortedIntegral);
  let previous: string | undefined;
  for (const [key, member] of Object.entries(value)) {
    if ((previous !== undefined && previous >= key) || !sortedIntegral(member)) return false;
    previous = key;
  }
  return true;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a UTF-16 surrogate without its pair (such a string is not I-JSON, RFC 7493 §2.1). */
export function hasLoneSurrogate(text: string): boolean {
  // Most text has no surrogate at all; only then is the pairing looked at.
  return SURROGATE.test(text) && LONE_SURROGATE.test(text);
}

/**
 * Whether two values have the same canonical JSON (same keys in any order, same values), without
 * writing it: for values inside the profile, `jsonEqual(a, b)` iff `canonicalize(a) === canonicalize(b)`.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== "number" || Number.isSafeInteger(a);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** Where a value sits, as keys and indexes from the root; turned into a `$.a[0].b` path only for an error. */
type Trail = (string | number)[];

function write(value: unknown, trail: Trail, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      if (hasLoneSurrogate(value)) refuse(trail, "string holds a lone surrogate (not I-JSON)");
      // JSON.stringify emits RFC 8785 §3.2.2.2 string escaping.
      return JSON.stringify(value);
    case "number":
      if (!Number.isSafeInteger(value)) refuse(trail, `number ${String(value)} is not a safe integer`);
      // RFC 8785 §3.2.2.3: integers print as ECMAScript Number-to-String; -0 prints as 0.
      return Object.is(value, -0) ? "0" : String(value);
    case "object":
      return writeObject(value, trail, seen);
    default:
      return refuse(trail, `${typeof value} is not JSON`);
  }
}

function writeObject(value: object, trail: Trail, seen: Set<object>): string {
  if (seen.has(value)) refuse(trail, "cyclic structure");
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) refuse(trail, "array subclass");
      let out = "[";
      for (let i = 0; i < value.length; i++) {
        trail.push(i);
        if (!(i in value)) refuse(trail, "sparse array");
        out += (i === 0 ? "" : ",") + write(value[i], trail, seen);
        trail.pop();
      }
      return out + "]";
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) refuse(trail, "not a plain object");
    if (Object.getOwnPropertySymbols(value).length > 0) refuse(trail, "symbol keys");
    // RFC 8785 §3.2.3: sort by UTF-16 code units, which is what the default sort compares.
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    let out = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (hasLoneSurrogate(key)) refuse(trail, "string holds a lone surrogate (not I-JSON)");
      trail.push(key);
      out += (i === 0 ? "" : ",") + JSON.stringify(key) + ":" + write(record[key], trail, seen);
      trail.pop();
    }
    return out + "}";
  } finally {
    seen.delete(value);
  }
}

function refuse(trail: Trail, why: string): never {
  throw notCanonical(pathOf(trail), why);
}

/** `$`, then `.key` or `[index]` for each step of `trail`. */
function pathOf(trail: Trail): string {
  return "$" + trail.map((step) => (typeof step === "number" ? `[${step}]` : `.${step}`)).join("");
}

/** The E_NOT_CANONICAL error for the value at `path` (`$`-rooted), saying why. */
export function notCanonical(path: string, why: string): TrestleError {
  return new TrestleError("E_NOT_CANONICAL", `${path}: ${why}`, { path });
}
