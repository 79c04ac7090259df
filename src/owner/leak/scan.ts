/**
 * The never_disclose entries compiled once per check, and one text scanned for them (docs/ROOMS.md
 * "never_disclose"): an entry that is one number is looked for by value among every number the
 * text states (numbers.ts), any other entry as text (text-match.ts); both in the text itself and
 * in every decoding of it (decode.ts).
 */
import { decodedForms } from "./decode.js";
import { entryValues, valueCounts } from "./numbers.js";
import { textCount, textNeedle, textViews, type TextNeedle } from "./text-match.js";

/** A never_disclose entry as the gate looks for it: by value (a number) or as text; `index` is its place in the list. */
export type Secret = { index: number; values: Set<string> } | { index: number; needle: TextNeedle };

/** The entries of `never` to look for (an entry that folds to nothing is left out). */
export function compileSecrets(never: readonly string[]): Secret[] {
  const out: Secret[] = [];
  never.forEach((entry, index) => {
    const values = entryValues(entry);
    if (values) out.push({ index, values });
    else {
      const needle = textNeedle(entry);
      if (needle) out.push({ index, needle });
    }
  });
  return out;
}

/** What one text says of each secret (in the order of `secrets`): how often, whether only in a decoded form, and whether decoding stopped at its bound. */
export interface TextScan {
  counts: number[];
  encoded: boolean[];
  overflow: boolean;
}

/** How often each of `secrets` occurs in `text` or any decoding of it; `minorDigits`: the minor-unit digits of the currency the check knows (a number in cents is read in major units too). */
export function scanText(text: string, secrets: readonly Secret[], minorDigits: readonly number[] = []): TextScan {
  const decoded = decodedForms(text);
  const counts = secrets.map(() => 0);
  const encoded = secrets.map(() => false);
  const byText = secrets.some((s) => "needle" in s);
  [text, ...decoded.forms].forEach((form, at) => {
    const values = valueCounts(form, minorDigits);
    const views = byText ? textViews(form) : null;
    // No number read and no text secret: every count stays 0.
    if (values.size === 0 && !views) return;
    secrets.forEach((secret, i) => {
      const found =
        "values" in secret
          ? [...secret.values].reduce((sum, v) => sum + (values.get(v) ?? 0), 0)
          : textCount(views!, secret.needle);
      if (found > 0 && counts[i] === 0 && at > 0) encoded[i] = true;
      counts[i]! += found;
    });
  });
  return { counts, encoded, overflow: decoded.overflow };
}

/** Whether the number `value` (by decKey) is one of the numeric secrets; the first such secret, or undefined. */
export function secretOfValue(key: string, secrets: readonly Secret[]): Secret | undefined {
  return secrets.find((s) => "values" in s && s.values.has(key));
}
