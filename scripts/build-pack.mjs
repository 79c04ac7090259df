/**
 * The relay serves its own packed client (decision 0426): `npm pack` of this checkout written into
 * the static assets as /trestle-<version>.tgz, with /trestle.json naming the file, the version and
 * the tarball's sha512 integrity, so a reader runs `npx --package <relay>/trestle-<version>.tgz
 * trestle …` and no command names a registry package the project does not own. Runs after the
 * CLI, the library and the site are built (scripts/build.mjs); skipped when the tarball is newer
 * than everything it packs.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SITE = join(ROOT, "dist", "site");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** The tarball's name, as `npm pack` writes it and the relay serves it (at the site's root). */
export const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
/** What the packed files are built from (package.json "files"). */
const PACKED = ["bin/trestle.mjs", "dist/trestle.mjs", "dist/verify-worker.mjs", "dist/chunks", "dist/lib", "dist/view", "CONSTITUTION.md", "package.json"].map((p) => join(ROOT, p));

/** Whether the served tarball or its description is missing or older than what it packs. */
export function packStale() {
  return outdated([join(SITE, TARBALL), join(SITE, "trestle.json")], PACKED, [""]);
}

/** Packs the checkout into dist/site and writes dist/site/trestle.json beside it. */
export function buildPack() {
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", SITE], { cwd: ROOT, encoding: "utf8" }));
  const integrity = `sha512-${createHash("sha512").update(readFileSync(join(SITE, packed.filename))).digest("base64")}`;
  writeFileSync(join(SITE, "trestle.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version, tarball: `/${packed.filename}`, integrity }, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildPack();
