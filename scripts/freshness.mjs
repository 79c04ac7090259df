/**
 * Whether build outputs are older than their sources, by modification time, so each build step
 * runs only when something it is built from changed (a fresh checkout has no outputs: stale).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) of any file under `paths` (files or folders) whose name ends with one of `exts`; missing paths count as 0. */
export function newestMtime(paths, exts) {
  let newest = 0;
  const visit = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (exts.some((ext) => path.endsWith(ext))) newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

/** Whether any of `outputs` is missing or older than the newest source under `sources` with one of `exts`. */
export function outdated(outputs, sources, exts) {
  const newest = newestMtime(sources, exts);
  try {
    return outputs.some((out) => statSync(out).mtimeMs < newest);
  } catch {
    return true;
  }
}
