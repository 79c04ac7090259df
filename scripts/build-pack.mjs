/**
 * The relay serves its own packed client (decision 0426): this checkout packed with `npm pack`,
 * written into the static assets as /trestle-<version>.tgz, with /trestle.json naming the file, the
 * version and the tarball's sha512 integrity, so a reader installs it once (`npm install -g
 * <relay>/trestle-<version>.tgz`) or runs it with npx, and no command names a registry package the
 * project does not own. The package carries a publish-time manifest (`publishedManifest`, decision
 * 0452): package.json without what only a checkout uses. Runs after the CLI, the library and the
 * site are built (scripts/build.mjs); skipped when the tarball is newer than everything it packs.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SITE = join(ROOT, "dist", "site");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** The tarball's name, as `npm pack` writes it and the relay serves it (at the site's root). */
export const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
/** What the packed files are built from (package.json "files", and the README npm adds). */
const PACKED = [
  "bin/trestle.mjs",
  "dist/trestle.mjs",
  "dist/verify-worker.mjs",
  "dist/chunks",
  "dist/lib",
  "dist/view",
  "CONSTITUTION.md",
  "README.md",
  "package.json",
].map((p) => join(ROOT, p));

/** Whether the served tarball or its description is missing or older than what it packs. */
export function packStale() {
  return outdated([join(SITE, TARBALL), join(SITE, "trestle.json")], PACKED, [""]);
}

/**
 * The package.json a consumer installs: this checkout's without its scripts (every one builds,
 * tests, deploys or benchmarks the checkout, from files the package does not ship, and none may run
 * on a consumer's machine: `prepare` made npm warn on every install of the tarball), its
 * devDependencies and its review of their install scripts (`allowScripts`).
 */
export function publishedManifest(manifest) {
  const { scripts: _scripts, devDependencies: _devDependencies, allowScripts: _allowScripts, ...published } = manifest;
  return published;
}

/**
 * Packs the checkout into `destination` as npm would, but with the published manifest: the files
 * `npm pack` would take are copied into a folder of their own beside that manifest, and packed
 * from there. Returns npm's description of the tarball (`filename`, `files`, `integrity`, …).
 */
export function packInto(destination) {
  const npmPack = (dir, args) =>
    JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", ...args], { cwd: dir, encoding: "utf8" }))[0];
  const stage = mkdtempSync(join(tmpdir(), "trestle-pack-stage-"));
  try {
    for (const { path } of npmPack(ROOT, ["--dry-run"]).files) {
      mkdirSync(dirname(join(stage, path)), { recursive: true });
      cpSync(join(ROOT, path), join(stage, path));
    }
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`);
    return npmPack(stage, ["--pack-destination", destination]);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Packs the checkout into dist/site and writes dist/site/trestle.json beside it. */
export function buildPack() {
  const packed = packInto(SITE);
  const integrity = `sha512-${createHash("sha512")
    .update(readFileSync(join(SITE, packed.filename)))
    .digest("base64")}`;
  writeFileSync(
    join(SITE, "trestle.json"),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, tarball: `/${packed.filename}`, integrity }, null, 2)}\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildPack();
