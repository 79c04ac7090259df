/** The value of a Roman numeral word (notations.ts reads bare words and the vinculum, words-en.ts a numeral before a scale: XXIV hundred). */
const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };
const SUBTRACTIVE = new Set(["iv", "ix", "xl", "xc", "cd", "cm"]);
const MAX_REPEAT = 4;

/** The value of a Roman numeral in the usual order (letters falling, a subtractive pair at most once per place), or null. */
export function romanValue(word: string): number | null {
  let total = 0;
  let last = Infinity;
  let repeat = 0;
  for (let i = 0; i < word.length;) {
    const pair = word.slice(i, i + 2);
    if (SUBTRACTIVE.has(pair)) {
      const value = ROMAN[pair[1]!]! - ROMAN[pair[0]!]!;
      if (value >= last) return null;
      total += value;
      last = ROMAN[pair[0]!]!;
      repeat = 0;
      i += 2;
      continue;
    }
    const value = ROMAN[word[i]!]!;
    if (value > last) return null;
    repeat = value === last ? repeat + 1 : 1;
    const fives = value === 5 || value === 50 || value === 500;
    if (repeat > (fives ? 1 : MAX_REPEAT) && value !== 1000) return null;
    total += value;
    last = value;
    i += 1;
  }
  return total;
}
