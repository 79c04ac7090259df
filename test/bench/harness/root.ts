/** The repository's root directory for the bench, which runs bundled from dist/ (scripts/bench.mjs sets TRESTLE_ROOT). */
import { resolve } from "node:path";

/** Absolute path of the repository root. */
export const ROOT = resolve(process.env.TRESTLE_ROOT ?? process.cwd());
