/** Small file helpers for the Node-only stores under the trestle home (pins, heads, evidence). */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { TrestleError } from "../protocol/index.js";

/** Writes via a temporary file and rename, so a concurrent reader never sees half a file; directories 0700, the file 0600. */
export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

/** A JSON file as read: `exists` is false when there is no such file; `value` is undefined when it is not JSON. */
export interface JsonFile {
  exists: boolean;
  value: unknown;
}

/** Reads and parses the JSON file at `path`; E_KEY_FILE when it exists but cannot be read. */
export function readJsonFile(path: string): JsonFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { exists: false, value: undefined };
    throw new TrestleError("E_KEY_FILE", `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return { exists: true, value: JSON.parse(text) as unknown };
  } catch {
    return { exists: true, value: undefined };
  }
}
