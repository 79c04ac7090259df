/**
 * The Node.js binaries the checkout's tests need besides the one running them (decision 0483): a
 * Node 22 for the official MCP conformance suite (it uses `fs.globSync`, new in 22), and the oldest
 * Node the package declares (`engines.node` in package.json, 20.3) to run the packed CLI on.
 * `.ci/run` installs each from the npm registry into .ci/node<major> when the machine's node is not
 * that one; TRESTLE_NODE22 and TRESTLE_NODE20 name others. A test that finds none skips, saying how
 * to get one, except under CI (`.ci/run` sets CI), where it fails, as the Go cross-check does.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url);

/** The oldest Node the package declares: `engines.node` without its `>=` ("20.3"). */
export const NODE_FLOOR = (
  JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { engines: { node: string } }
).engines.node.replace(/^>=\s*/, "");

/** Where .ci/run installs Node `major` from the npm registry. */
export function ciNode(major: 20 | 22): string {
  return fileURLToPath(new URL(`.ci/node${major}/node_modules/.bin/node`, ROOT));
}

/** A Node binary found, or why none was and how to get one. */
export type Found = { path: string } | { missing: string };

/** A Node 22 or newer: TRESTLE_NODE22, else this one when it is, else .ci/node22's. */
export function node22(): Found {
  return found(22, (version) => Number(version.split(".")[0]) >= 22);
}

/** The Node of the package's floor (NODE_FLOOR's major and minor): TRESTLE_NODE20, else this one when it is, else .ci/node20's. */
export function nodeFloor(): Found {
  return found(20, (version) => `${version}.`.startsWith(`${NODE_FLOOR}.`));
}

function found(major: 20 | 22, fits: (version: string) => boolean): Found {
  const given = process.env[`TRESTLE_NODE${major}`];
  if (given) return { path: given };
  if (fits(process.versions.node)) return { path: process.execPath };
  if (existsSync(ciNode(major))) return { path: ciNode(major) };
  return {
    missing: `this needs Node.js ${major === 22 ? "22" : NODE_FLOOR} (this is ${process.version}): run .ci/run once (it installs one into .ci/node${major}), or set TRESTLE_NODE${major} to one`,
  };
}

/** Declares `body`'s tests when `node` was found; else one test that fails under CI and a skipped one elsewhere, each saying what is missing. */
export function withNode(node: Found, body: (path: string) => void): void {
  if ("path" in node) return body(node.path);
  if (process.env.CI) it(`must run under CI: ${node.missing}`, () => expect.fail(node.missing));
  else it.skip(`skipped: ${node.missing}`, () => undefined);
}
