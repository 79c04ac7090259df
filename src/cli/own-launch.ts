/**
 * How another program (an MCP client, from the config `trestle mcp --print-config` prints) starts
 * this same `trestle` later: node and this launcher by absolute path, links resolved, so a client
 * without the shell's PATH still starts it; or, when the launcher runs from npx's cache (npm's
 * `<cache>/_npx/<hash>/node_modules/`, which npm may empty or replace at any time), npx again with
 * the package spec npx was given, `--yes` (npx asks before installing, and gives up without a
 * terminal) and `--prefer-offline` (npx fetches the spec again on every run otherwise, and waits
 * about 70 s when its host does not answer).
 */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Launch } from "../mcp/print-config.js";
import { UsageError } from "./exit.js";

/** A launcher path inside npx's cache: the folder npx installed into is the first group. */
const NPX_CACHE = /^(.*[\\/]_npx[\\/][^\\/]+)[\\/]node_modules[\\/]/;

/** The program and arguments that start the `trestle` whose launcher is `script` (process.argv[1]), with no command yet. */
export function ownLaunch(script: string | undefined): Launch {
  if (script === undefined)
    throw new UsageError("cannot tell which script is running; pass the path to bin/trestle.mjs yourself");
  const launcher = realpathSync(script);
  const npx = NPX_CACHE.exec(launcher);
  if (!npx) return { command: process.execPath, args: [launcher] };
  const name = readJson(join(dirname(dirname(launcher)), "package.json"))?.name;
  const spec = typeof name === "string" ? readJson(join(npx[1]!, "package.json"))?.dependencies?.[name] : undefined;
  if (typeof spec !== "string") {
    throw new UsageError(
      `this trestle runs from npx's cache (${npx[1]}), which npm may empty, and npx's record of where it came from is unreadable: install it (npm install -g <relay>/trestle-<version>.tgz) and print the config again`,
    );
  }
  return { command: "npx", args: ["--yes", "--prefer-offline", "--package", spec, "trestle"] };
}

/** The JSON object in `file`, or undefined when it cannot be read as one. */
function readJson(file: string): { name?: unknown; dependencies?: Record<string, unknown> } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; dependencies?: Record<string, unknown> };
  } catch {
    return undefined;
  }
}
