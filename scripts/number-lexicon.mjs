/**
 * `node scripts/number-lexicon.mjs`: regenerates src/owner/leak/lexicon.ts, the leak gate's number
 * words of every language in the Unicode CLDR spellout rules (the cldr-rbnf devDependency) and of
 * the languages CLDR has none for from to-words (a devDependency too), with scripts/lexicon/
 * (decisions 0440 and 0474). Bundles scripts/lexicon/write.ts with esbuild into
 * dist/number-lexicon.mjs and runs it. test/unit/owner/leak/lexicon.test.ts fails when the committed
 * file is not what this writes.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(ROOT, "dist", "number-lexicon.mjs");
mkdirSync(dirname(out), { recursive: true });
await build({
  entryPoints: [join(ROOT, "scripts/lexicon/write.ts")],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
const run = spawnSync(process.execPath, [out, ROOT], { stdio: "inherit" });
process.exit(run.status ?? 1);
