/**
 * Canonical JSON text (RFC 8785, canonical.ts) read without parsing it again: a member of an
 * object left out of the text itself. Canonical text is `{` and its members sorted by key, joined
 * by commas, so the canonical text of an object without some members is its canonical text with
 * those members cut out. Used where the canonical bytes were already checked (an export line) and
 * writing them again would only repeat work (leafOfCanonical in ledger/chain.ts).
 */
import { stringEnd } from "./inbound-json.js";

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * Given `text`, the canonical text of an object, the canonical text of that object without its
 * top-level members `keys` (each must be there with a string value), or null when one is not.
 */
export function withoutStringMembers(text: string, keys: readonly string[]): string | null {
  // A key's canonical text is exactly its JSON.stringify (RFC 8785 §3.2.2.2), so keys are matched as written.
  const wanted = new Set(keys.map((key) => JSON.stringify(key)));
  const cuts: [number, number][] = [];
  let depth = 0;
  for (let i = 0; i < text.length && wanted.size > 0; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const before = text.charCodeAt(i - 1);
      if (depth === 1 && (before === OPEN_OBJECT || before === COMMA) && wanted.delete(text.slice(i, end + 1))) {
        // A member of the object itself, cut with the comma before it (the first has none).
        if (text.charCodeAt(end + 2) !== QUOTE) return null;
        const valueEnd = stringEnd(text, end + 2) + 1;
        cuts.push([before === COMMA ? i - 1 : i, valueEnd]);
        i = valueEnd - 1;
        continue;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  if (wanted.size > 0) return null;
  let out = "";
  let from = 0;
  for (const [start, end] of cuts) {
    out += text.slice(from, start);
    from = end;
  }
  out += text.slice(from);
  // With the first member cut, the next one kept has lost no comma: it leads the object now.
  return out.charCodeAt(1) === COMMA ? `{${out.slice(2)}` : out;
}
