/** JSON files named on the command line (a config, a card, effects): a file that cannot be read, or is not JSON, is a usage error naming it. */
import { readFileSync } from "node:fs";
import { UsageError } from "./exit.js";

/** The JSON in the file at `path`; `what` names it in errors ("the config", "the effects file"). */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} ${path} is not JSON`);
  }
}
