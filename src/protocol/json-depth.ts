/**
 * JSON nesting depth, measured on the text before it is parsed: a body of a few hundred KB can
 * nest tens of thousands of levels, deep enough to overflow the stack of every recursive walker
 * after JSON.parse (schemas, canonical JSON, Durable Object RPC). Iterative, so no input overflows it.
 */
import { TrestleError } from "./errors.js";
import { LIMITS } from "./limits.js";

/** Whether no array or object in the JSON text `text` is nested more than `max` levels deep. */
export function jsonDepthWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return true;
}

/** Throws E_SCHEMA when the JSON text `text` nests deeper than LIMITS.json_depth; call it before JSON.parse. */
export function checkJsonDepth(text: string): void {
  if (!jsonDepthWithin(text, LIMITS.json_depth)) {
    throw new TrestleError("E_SCHEMA", `JSON may nest at most ${LIMITS.json_depth} levels deep`);
  }
}
