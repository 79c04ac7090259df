/**
 * A Node.js 22 for what the checkout's tests run that needs it (decision 0483): the official MCP
 * conformance suite uses `fs.globSync`, new in Node 22, while the package itself runs on Node 20.
 * `.ci/run` puts one in .ci/node22 when the machine's node is older; TRESTLE_NODE22 names another.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where .ci/run installs Node 22 from the npm registry. */
export const CI_NODE22 = fileURLToPath(new URL("../../.ci/node22/node_modules/.bin/node", import.meta.url));

/** The Node 22 (or newer) binary to run: TRESTLE_NODE22, else this one when it is 22 or newer, else .ci/node22's; throws saying how to get one. */
export function node22(): string {
  const given = process.env.TRESTLE_NODE22;
  if (given) return given;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  if (existsSync(CI_NODE22)) return CI_NODE22;
  throw new Error(`this needs Node.js 22 (this is ${process.version}): run .ci/run once (it installs one into .ci/node22), run the tests under Node 22, or set TRESTLE_NODE22 to a Node 22 binary`);
}
