/** Writes src/owner/leak/lexicon.ts under the checkout given as the first argument, from cldr-rbnf and to-words (run by scripts/number-lexicon.mjs), and says what it holds. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLexicon, lexiconModule, LEXICON_FILE } from "./lexicon.js";

const built = buildLexicon();
const text = lexiconModule(built);
writeFileSync(join(process.argv[2]!, LEXICON_FILE), text);
const missed = built.filter((b) => b.missed.length > 0).map((b) => `${b.line.split("|")[0]} (${b.missed.length})`);
process.stdout.write(
  `${LEXICON_FILE}: ${built.length} languages, ${text.length} characters; spellings not read: ${missed.join(", ") || "none"}\n`,
);
