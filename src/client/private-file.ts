/**
 * Reading a private file on the owner's machine (Node only): a key file or a room key file is
 * refused when group or others may read it (as ssh refuses such a private key), and parsed as JSON.
 */
import { readFileSync, statSync } from "node:fs";
import { TrestleError } from "../protocol/index.js";

/** The JSON in the private file at `path`, or undefined when there is none; E_KEY_FILE when others may read it, it cannot be read, or it is not JSON. */
export function readPrivateJson(path: string): unknown {
  let text: string;
  try {
    checkPrivate(path);
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof TrestleError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new TrestleError("E_KEY_FILE", `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TrestleError("E_KEY_FILE", `${path} is not JSON`);
  }
}

/** Throws E_KEY_FILE when group or others may read the file at `path` (as ssh refuses such a private key); a missing file throws the fs error. */
function checkPrivate(path: string): void {
  if (process.platform === "win32") return;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new TrestleError(
      "E_KEY_FILE",
      `${path} is readable by others (mode ${mode.toString(8).padStart(4, "0")}); run: chmod 600 ${path}`,
      { mode: mode.toString(8) },
    );
  }
}
