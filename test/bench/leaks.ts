/**
 * `npm run bench -- --leaks`: runs the leak corpus (test/vectors/leak-corpus.json) through the
 * leak gate and prints the catch rate, the false-positive rate and what is missed (docs/ROOMS.md
 * "never_disclose"), then the same by class over the spellings and honest texts generated from
 * each secret's value (test/support/leak-classes.ts), then the held-out corpus a red-teamer wrote
 * from the docs alone (test/vectors/leak-heldout.json). Exits 1 when a clean case is flagged.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classCounts } from "../support/leak-classes.js";
import { runCorpus } from "../support/leak-corpus.js";
import { runHeldOut } from "../support/leak-heldout.js";
import { ROOT } from "./harness/root.js";

const run = runCorpus(readFileSync(join(ROOT, "test/vectors/leak-corpus.json"), "utf8"));
const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
process.stdout.write(
  [
    `leak corpus: ${run.leaks + run.clean} cases`,
    `caught ${run.caught.length} of ${run.leaks} leaks: catch rate ${percent(run.catchRate)}`,
    `flagged ${run.falsePositives.length} of ${run.clean} clean cases: false-positive rate ${percent(run.falsePositiveRate)}`,
    `missed: ${run.missed.join(", ") || "none"}`,
    ...(run.falsePositives.length > 0 ? [`false positives: ${run.falsePositives.join(", ")}`] : []),
  ].join("\n") + "\n",
);
const classes = classCounts();
process.stdout.write(
  [
    "by class (generated from the secrets' values):",
    ...Object.entries(classes).map(
      ([name, k]) =>
        `  ${name.padEnd(11)} caught ${k.caught} of ${k.leaks} spellings, refused ${k.refused} of ${k.clean} honest texts`,
    ),
  ].join("\n") + "\n",
);
const held = runHeldOut(readFileSync(join(ROOT, "test/vectors/leak-heldout.json"), "utf8"));
process.stdout.write(
  [
    `held-out corpus (written from docs/ROOMS.md alone; ambiguous cases apart): caught ${held.caught} of ${held.leaks} leaks (${percent(held.caught / held.leaks)}), flagged ${held.flagged.length} of ${held.clean} clean cases`,
    ...held.byClass.map((k) => `  ${k.label.padEnd(5)} ${k.name.padEnd(34)} flagged ${k.flagged} of ${k.cases}`),
    ...(held.flagged.length > 0 ? [`false positives: ${held.flagged.join(", ")}`] : []),
  ].join("\n") + "\n",
);
process.exit(
  run.falsePositives.length > 0 || held.flagged.length > 0 || Object.values(classes).some((k) => k.refused > 0) ? 1 : 0,
);
