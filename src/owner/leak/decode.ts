/**
 * What an encoded-looking stretch of text says, so the leak gate reads it too (docs/ROOMS.md
 * "never_disclose"): percent-encoding (and "+" as a space), \x / \u / &#...; escapes, base64 and
 * base64url tokens, and hex tokens (optionally with a space or ":" between bytes). Only a decoding
 * that is text (valid UTF-8, at least 3/4 printable) is kept. Decoding is applied to its own
 * output once more (base64 of percent-encoded text), never a third time.
 *
 * Bound: every decoding is no longer than what it decodes, each layer examines its input a fixed
 * number of times, and at most MAX_DECODED characters of decoded text are kept per call; past that
 * the call reports `overflow` and the gate refuses the message unread rather than let a hostile
 * message buy an expensive check (or an unchecked one).
 */

/** Decoding layers applied: the text, its decodings, and theirs. */
export const DECODE_LAYERS = 2;
/** Most decoded characters kept for one call of decodedForms. */
export const MAX_DECODED = 256 * 1024;
const MIN_TOKEN = 6;

/** The decoded forms of a text, and whether some were dropped for the bound. */
export interface Decoded {
  forms: string[];
  overflow: boolean;
}

/** Replaces what is not UTF-8 with U+FFFD rather than throwing: most tokens tried are not text, and an exception per token costs more than the rest of the check. */
const LENIENT = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** `bytes` as text when they are valid UTF-8 (no U+FFFD once decoded) and at least 3/4 printable; else null. */
function asText(bytes: Uint8Array): string | null {
  if (bytes.length < 2) return null;
  const text = LENIENT.decode(bytes);
  if (text.includes("\ufffd")) return null;
  const printable = text.match(/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]/gu)?.length ?? 0;
  return printable * 4 >= [...text].length * 3 ? text : null;
}

function percentDecoded(text: string): string | null {
  if (!/%[0-9a-f]{2}/i.test(text)) return null;
  const bytes: number[] = [];
  const plain = new TextEncoder();
  for (let i = 0; i < text.length; ) {
    if (text[i] === "%" && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...plain.encode(ch === "+" ? " " : ch));
      i += ch.length;
    }
  }
  return asText(new Uint8Array(bytes));
}

const ESCAPE = /\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\u\{([0-9a-f]{1,6})\}|&#x([0-9a-f]{1,6});|&#([0-9]{1,7});/gi;

function unescaped(text: string): string | null {
  if (!ESCAPE.test(text)) return null;
  ESCAPE.lastIndex = 0;
  return text.replace(ESCAPE, (whole, x: string | undefined, u: string | undefined, ub: string | undefined, hx: string | undefined, dec: string | undefined) => {
    const cp = x !== undefined || u !== undefined || ub !== undefined || hx !== undefined ? parseInt((x ?? u ?? ub ?? hx)!, 16) : Number(dec);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64Bytes(token: string): Uint8Array | null {
  const body = token.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const usable = body.length - (body.length % 4 === 1 ? 1 : 0);
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (let i = 0; i < usable; i++) {
    const v = B64.indexOf(body[i]!);
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return new Uint8Array(out);
}

function hexBytes(token: string): Uint8Array {
  const digits = token.replace(/^0x/i, "").replace(/[ :]/g, "");
  const out = new Uint8Array(digits.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** One layer: every decoding `text` holds. */
function layer(text: string): string[] {
  const out: string[] = [];
  const keep = (decoded: string | null) => {
    if (decoded !== null && decoded !== text) out.push(decoded);
  };
  keep(percentDecoded(text));
  keep(unescaped(text));
  for (const m of text.matchAll(new RegExp(`[A-Za-z0-9+/_-]{${MIN_TOKEN},}={0,2}`, "g"))) {
    const bytes = base64Bytes(m[0]);
    if (bytes) keep(asText(bytes));
  }
  for (const m of text.matchAll(/(?:0x)?[0-9a-f]{2}(?:[ :]?[0-9a-f]{2}){2,}/gi)) keep(asText(hexBytes(m[0])));
  return out;
}

/** The decodings of `text` (DECODE_LAYERS deep), at most MAX_DECODED characters of them. */
export function decodedForms(text: string): Decoded {
  const forms: string[] = [];
  let kept = 0;
  let frontier = [text];
  for (let depth = 0; depth < DECODE_LAYERS; depth++) {
    const next: string[] = [];
    for (const source of frontier) {
      for (const decoded of layer(source)) {
        kept += decoded.length;
        if (kept > MAX_DECODED) return { forms, overflow: true };
        forms.push(decoded);
        next.push(decoded);
      }
    }
    frontier = next;
  }
  return { forms, overflow: false };
}
