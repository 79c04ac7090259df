/**
 * Inbound JSON (docs/SPEC.md §2.1): every request body, WebSocket frame and read authorization is
 * parsed here. Beyond JSON.parse it checks the text itself, because the parsed value hides what
 * makes a signed body ambiguous: a duplicate key (parsers keep the first or the last), a number
 * that is not an integer literal or not a safe integer (parsers round it differently), an escaped
 * lone surrogate (not I-JSON). It also bounds nesting (a deep value overflows recursive walkers).
 * One iterative pass over the text: no input overflows it, and string contents are skipped with
 * indexOf, so its cost grows with the number of tokens, not the length of the text.
 */
import { hasLoneSurrogate, notCanonical } from "./canonical.js";
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";

/**
 * The value of the JSON text `text` (decoded from strict UTF-8), refused with E_SCHEMA when it is
 * not JSON or nests deeper than LIMITS.json_depth, and with E_NOT_CANONICAL when it is outside the
 * inbound profile (duplicate key, number not a safe integer literal, escaped lone surrogate).
 */
export function parseInboundJson(text: string): unknown {
  const value = parseJsonText(text);
  checkInboundJson(text);
  return value;
}

/** JSON.parse, refusing text that is not JSON with E_SCHEMA; the value is unchecked until checkInboundJson(text) passes. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TrestleError("E_SCHEMA", "the body is not valid JSON");
  }
}

// A JSON integer literal: no fraction, no exponent, no leading zero (RFC 8259 §6 int).
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** An open object (its keys so far and the current one) or array (the current index). */
interface Level {
  keys: Set<string> | null;
  at: string | number;
}

/**
 * Checks the depth (E_SCHEMA) and the inbound profile (E_NOT_CANONICAL) of text JSON.parse has
 * accepted; the first profile violation in text order is reported, a depth violation anywhere first.
 */
export function checkInboundJson(text: string): void {
  const stack: Level[] = [];
  let violation: TrestleError | null = null;
  let expectKey = false;
  // The first backslash at or after the string being read (Infinity: none): strings before it need no decoding.
  let backslash = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (violation === null) {
        if (backslash < i) backslash = nextBackslash(text, i);
        const hasEscape = backslash < end;
        const unicode = hasEscape && text.slice(i, end).includes("\\u");
        if (expectKey || unicode) {
          const decoded = hasEscape ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
          if (expectKey) violation = addKey(stack, decoded);
          if (unicode && hasLoneSurrogate(decoded))
            violation ??= notCanonical(pathOf(stack), "string holds a lone surrogate (not I-JSON)");
        }
      }
      expectKey = false;
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= LIMITS.json_depth)
        throw new TrestleError("E_SCHEMA", `JSON may nest at most ${LIMITS.json_depth} levels deep`);
      stack.push(c === 0x7b ? { keys: new Set(), at: "" } : { keys: null, at: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]!;
      if (top.keys === null) (top.at as number)++;
      else expectKey = true;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      if (violation === null) violation = numberViolation(text.slice(i, end), stack);
      i = end - 1;
    }
  }
  if (violation) throw violation;
}

function nextBackslash(text: string, from: number): number {
  const at = text.indexOf("\\", from);
  return at === -1 ? Infinity : at;
}

/** Index of the quote that closes the string opening at `start` (the text is valid JSON). */
export function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

function numberViolation(literal: string, stack: readonly Level[]): TrestleError | null {
  if (!INTEGER.test(literal))
    return notCanonical(pathOf(stack), `number ${literal} is not an integer literal (no fraction, no exponent)`);
  if (!Number.isSafeInteger(Number(literal)))
    return notCanonical(pathOf(stack), `number ${literal} is not a safe integer (at most 2^53 - 1 in magnitude)`);
  return null;
}

function addKey(stack: readonly Level[], key: string): TrestleError | null {
  const top = stack[stack.length - 1]!;
  top.at = key;
  if (top.keys!.has(key))
    return notCanonical(pathOf(stack), `duplicate key ${JSON.stringify(key)} (I-JSON, RFC 7493 §2.3)`);
  top.keys!.add(key);
  return null;
}

/** `$`-rooted path of the value being read (for a key: of its member). */
function pathOf(stack: readonly Level[]): string {
  let path = "$";
  for (const level of stack) path += typeof level.at === "number" ? `[${level.at}]` : `.${level.at}`;
  return path;
}
