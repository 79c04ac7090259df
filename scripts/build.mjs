/**
 * The whole build (`npm run build`, the `prepare` script, `npm test`): the CLI and demo bundles,
 * the library (JavaScript and type declarations), the relay's static assets and the packed client
 * the relay serves (scripts/build-pack.mjs). Each part is
 * rebuilt only when a source of its own is newer than what it built; `--force` rebuilds all.
 */
import { fileURLToPath } from "node:url";
import { buildCli, isStale } from "./build-cli.mjs";
import { buildLib, libStale } from "./build-lib.mjs";
import { buildPack, packStale } from "./build-pack.mjs";
import { buildSite, siteStale } from "./build-site.mjs";

/** Builds what is out of date (everything with `force`). */
export async function buildAll(force = false) {
  await Promise.all([force || isStale() ? buildCli() : null, force || siteStale() ? buildSite() : null]);
  if (force || libStale()) buildLib();
  if (force || packStale()) buildPack();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await buildAll(process.argv.includes("--force"));
