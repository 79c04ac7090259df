/**
 * RFC 8785 JSON Canonicalization Scheme, restricted to the trestle profile: integers only
 * (safe integers), plain objects and arrays, strings, booleans and null. Anything else
 * (undefined, NaN, Infinity, bigint, non-integer numbers, class instances, functions, symbols)
 * is refused with E_NOT_CANONICAL rather than silently changed.
 */
import { utf8 } from "./bytes.js";
import { TrestleError } from "./errors.js";

/** JSON values the trestle profile can canonicalize. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** RFC 8785 canonical text of `value`; throws E_NOT_CANONICAL for anything outside the profile. */
export function canonicalize(value: unknown): string {
  return write(value, "$", new Set());
}

/** UTF-8 bytes of the canonical text of `value`. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8(canonicalize(value));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a UTF-16 surrogate without its pair (such a string is not I-JSON, RFC 7493 §2.1). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function write(value: unknown, path: string, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      if (hasLoneSurrogate(value)) refuse(path, "string holds a lone surrogate (not I-JSON)");
      // JSON.stringify emits RFC 8785 §3.2.2.2 string escaping.
      return JSON.stringify(value);
    case "number":
      if (!Number.isSafeInteger(value)) refuse(path, `number ${String(value)} is not a safe integer`);
      // RFC 8785 §3.2.2.3: integers print as ECMAScript Number-to-String; -0 prints as 0.
      return Object.is(value, -0) ? "0" : String(value);
    case "object":
      return writeObject(value, path, seen);
    default:
      return refuse(path, `${typeof value} is not JSON`);
  }
}

function writeObject(value: object, path: string, seen: Set<object>): string {
  if (seen.has(value)) refuse(path, "cyclic structure");
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) refuse(path, "array subclass");
      const parts: string[] = [];
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) refuse(`${path}[${i}]`, "sparse array");
        parts.push(write(value[i], `${path}[${i}]`, seen));
      }
      return `[${parts.join(",")}]`;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) refuse(path, "not a plain object");
    if (Object.getOwnPropertySymbols(value).length > 0) refuse(path, "symbol keys");
    // RFC 8785 §3.2.3: sort by UTF-16 code units, which is what the default sort compares.
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    const parts = keys.map((k) => `${write(k, path, seen)}:${write(record[k], `${path}.${k}`, seen)}`);
    return `{${parts.join(",")}}`;
  } finally {
    seen.delete(value);
  }
}

function refuse(path: string, why: string): never {
  throw notCanonical(path, why);
}

/** The E_NOT_CANONICAL error for the value at `path` (`$`-rooted), saying why. */
export function notCanonical(path: string, why: string): TrestleError {
  return new TrestleError("E_NOT_CANONICAL", `${path}: ${why}`, { path });
}
