/** Where the demo finds the repository it runs from (the `trestle` launcher and wrangler), and how it prints paths. */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the nearest directory above this file (bundled or not) holding bin/trestle.mjs. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "bin", "trestle.mjs"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find the trestle repository (bin/trestle.mjs) above the demo");
    dir = up;
  }
  return dir;
}

/** `path` relative to the working directory when it lies inside it (as a person would type it), else as it is. */
export function shortPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}
