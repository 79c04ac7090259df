/**
 * What an encoded-looking stretch of text says, so the leak gate reads it too (docs/ROOMS.md
 * "never_disclose", decision 0475): percent-encoding (and "+" as a space), \x / \u / &#...;
 * escapes, base64 and base64url tokens, hex tokens (optionally with a space or ":" between
 * bytes), Morse code (dots and dashes, letters apart by a space, words by a slash, a bar or more
 * spaces) and ROT13, where two or more English number words in ROT13 stand together (gjb gubhfnaq);
 * of those two, only the stretches around what is decoded are kept, not a copy of the whole text.
 * Only a decoding that is text (valid UTF-8, at least 3/4 printable) is kept. Decoding is applied
 * to its own output once more (base64 of percent-encoded text), never a third time.
 *
 * Bound: every decoding is no longer than what it decodes, each layer examines its input a fixed
 * number of times, and at most MAX_DECODED characters of decoded text are kept per call; past that
 * the call reports `overflow` and the gate refuses the message unread rather than let a hostile
 * message buy an expensive check (or an unchecked one).
 */

import { NUMBER_WORDS } from "./words-en.js";

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
  for (let i = 0; i < text.length;) {
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
  return text.replace(
    ESCAPE,
    (
      whole,
      x: string | undefined,
      u: string | undefined,
      ub: string | undefined,
      hx: string | undefined,
      dec: string | undefined,
    ) => {
      const cp =
        x !== undefined || u !== undefined || ub !== undefined || hx !== undefined
          ? parseInt((x ?? u ?? ub ?? hx)!, 16)
          : Number(dec);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    },
  );
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

/** The International Morse code of letters and digits, by code. */
const MORSE: Record<string, string> = Object.fromEntries(
  (
    "a.- b-... c-.-. d-.. e. f..-. g--. h.... i.. j.--- k-.- l.-.. m-- n-. o--- p.--. q--.- r.-. s... t- u..- v...- w.-- x-..- y-.-- z--.. " +
    "0----- 1.---- 2..--- 3...-- 4....- 5..... 6-.... 7--... 8---.. 9----."
  )
    .split(" ")
    .map((pair) => [pair.slice(1), pair[0]!]),
);
/** A run of at least two Morse letters: dots (. · •) and dashes (- – — − _), letters apart by a space, words by a slash, a bar or two spaces or more. */
const MORSE_RUN =
  /(?<![\p{L}\p{N}.\-\u00b7\u2022\u2013\u2014\u2212_])[.\-\u00b7\u2022\u2013\u2014\u2212_]{1,6}(?:(?: +| *[/|] *)[.\-\u00b7\u2022\u2013\u2014\u2212_]{1,6})+(?![\p{L}\p{N}.\-\u00b7\u2022\u2013\u2014\u2212_])/gu;

/** How many characters of the text around a Morse run or ROT13 number words a decoding keeps on each side (my floor: ..--- ....-): enough for the words a number is read with. */
const CONTEXT = 32;

/** The stretches of `text` from CONTEXT before each of `spans` to CONTEXT after it (stretches that meet are one), each put through `decode`, one per line: a decoding no longer than what it decodes, and never a copy of a whole long text. */
function stretches(text: string, spans: readonly [number, number][], decode: (stretch: string) => string): string {
  const merged: [number, number][] = [];
  for (const [from, to] of spans) {
    const [start, end] = [Math.max(0, from - CONTEXT), Math.min(text.length, to + CONTEXT)];
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged.map(([start, end]) => decode(text.slice(start, end))).join("\n");
}

/** A Morse run decoded, each letter or digit in place of its code, or null when a code is not one. */
function morseRun(run: string): string | null {
  const decoded = run
    .split(/ *[/|] *| {2,}/)
    .map((word) =>
      word
        .split(" ")
        .filter((code) => code !== "")
        .map((code) => MORSE[code.replace(/[\u00b7\u2022]/g, ".").replace(/[\u2013\u2014\u2212_]/g, "-")] ?? "\u0000")
        .join(""),
    )
    .join(" ");
  return decoded.includes("\u0000") ? null : decoded;
}

/** The stretches of `text` around its Morse code runs, each run decoded in place (null when none decodes whole). */
function morseDecoded(text: string): string | null {
  const spans = [...text.matchAll(MORSE_RUN)]
    .filter((m) => morseRun(m[0]) !== null)
    .map((m): [number, number] => [m.index, m.index + m[0].length]);
  return spans.length === 0
    ? null
    : stretches(text, spans, (stretch) => stretch.replace(MORSE_RUN, (run) => morseRun(run) ?? run));
}

/** `text` with its ASCII letters rotated by 13 (ROT13, its own inverse). */
export const rot13 = (text: string): string =>
  text.replace(/[a-z]/gi, (ch) =>
    String.fromCharCode(((ch.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (ch <= "Z" ? 65 : 97)),
  );
const ROT13_NUMBER = new RegExp(`(?<![\\p{L}])(?:${NUMBER_WORDS.map(rot13).join("|")})(?![\\p{L}])`, "giu");

/** Most characters between two English number words in ROT13 that read as one number (gjragl-sbhe uhaqerq). */
const ROT13_GAP = 4;

/** The stretches of `text` around two or more English number words in ROT13 next to each other (gjb gubhfnaq), in ROT13; null when there are none (a lone "bar" is not "one"). */
function rot13Decoded(text: string): string | null {
  const spans: [number, number][] = [];
  let run: [number, number] | null = null;
  let words = 0;
  for (const m of text.matchAll(ROT13_NUMBER)) {
    if (run && m.index - run[1] <= ROT13_GAP && /^[\s,-]*$/u.test(text.slice(run[1], m.index))) {
      run[1] = m.index + m[0].length;
      words++;
      continue;
    }
    if (run && words >= 2) spans.push(run);
    run = [m.index, m.index + m[0].length];
    words = 1;
  }
  if (run && words >= 2) spans.push(run);
  return spans.length === 0 ? null : stretches(text, spans, rot13);
}

/** One layer: every decoding `text` holds. */
function layer(text: string): string[] {
  const out: string[] = [];
  const keep = (decoded: string | null) => {
    if (decoded !== null && decoded !== text) out.push(decoded);
  };
  keep(percentDecoded(text));
  keep(unescaped(text));
  keep(morseDecoded(text));
  keep(rot13Decoded(text));
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
