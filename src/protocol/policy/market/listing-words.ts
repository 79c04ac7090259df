/**
 * The words of a listing's title as matching compares them (docs/SPEC.md §5.15): Unicode NFKC,
 * lower case, split at everything that is not a letter, mark or digit; a word of Han, kana or
 * Hangul (scripts written without spaces) becomes its pairs of neighbouring characters; a word of
 * 4 or more characters ending in one `s` loses it ("strollers" and "stroller" are one word). Words
 * under 3 characters and a few English function words are left out; at most
 * MAX_WORDS distinct words, in the order they first appear. Pure and deterministic: a verifier's
 * replay computes the same words.
 */

/** The most words a title contributes. */
export const MAX_WORDS = 32;

const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  "and",
  "the",
  "for",
  "with",
  "from",
  "into",
  "its",
  "are",
  "was",
  "any",
  "our",
  "your",
  "this",
  "that",
]);

const SPACELESS = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+$/u;

/** The distinct words of `title` that matching compares, at most MAX_WORDS. */
export function listingWords(title: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (word: string) => {
    if (seen.has(word) || out.length >= MAX_WORDS) return;
    seen.add(word);
    out.push(word);
  };
  for (const token of title
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (token === "") continue;
    const chars = [...token];
    if (SPACELESS.test(token)) {
      if (chars.length === 1) continue;
      for (let i = 0; i + 1 < chars.length; i++) add(chars[i]! + chars[i + 1]!);
    } else if (chars.length >= 3 && !FUNCTION_WORDS.has(token)) {
      add(chars.length >= 4 && token.endsWith("s") && !token.endsWith("ss") ? token.slice(0, -1) : token);
    }
  }
  return out;
}

/** The words `a` and `b` (each from listingWords) share, in `a`'s order. */
export function sharedWords(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b);
  return a.filter((w) => other.has(w));
}
