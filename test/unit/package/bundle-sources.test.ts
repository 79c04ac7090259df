/**
 * The staleness checks of the build scripts watch every file each bundle is built from: the CLI's,
 * the demo's and the verify worker's bundles (build-cli.mjs, which bin/trestle.mjs and npm test
 * rebuild only when stale), the principal window's page (build-view.mjs) and the public viewer's
 * script (build-site.mjs). esbuild says which files it read; a source outside the watched paths
 * (src/text and src/witness once were) would leave a checkout running a stale bundle after an edit.
 */
import { relative, resolve } from "node:path";
import { build, type BuildOptions } from "esbuild";
import { describe, expect, it } from "vitest";
import { CLI_SOURCES, ENTRIES } from "../../../scripts/build-cli.mjs";
import { SITE_SOURCES, VIEWER_BUILD } from "../../../scripts/build-site.mjs";
import { VIEW_ENTRY, VIEW_SOURCES } from "../../../scripts/build-view.mjs";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The project files (npm packages aside) esbuild reads to build `options`, as absolute paths. */
async function inputsOf(options: BuildOptions): Promise<string[]> {
  const result = await build({
    ...options,
    bundle: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  return Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes("node_modules/") && !input.startsWith("(disabled)"))
    .map((input) => resolve(ROOT, input));
}

/** The inputs under none of `watched`, relative to the checkout. */
const unwatched = (inputs: string[], watched: string[]) =>
  inputs
    .filter((input) => !watched.some((path) => input === path || input.startsWith(`${path}/`)))
    .map((input) => relative(ROOT, input));

describe("each bundle's staleness check", () => {
  it.each(ENTRIES.map(({ entry }) => [relative(ROOT, entry), entry]))(
    "watches every file %s is built from",
    async (_, entry) => {
      const inputs = await inputsOf({ entryPoints: [entry], platform: "node", format: "esm", packages: "external" });
      expect(inputs.length).toBeGreaterThan(10);
      expect(unwatched(inputs, CLI_SOURCES)).toEqual([]);
    },
  );

  it("watches every file the principal window's page is built from", async () => {
    const inputs = await inputsOf({ entryPoints: [VIEW_ENTRY], platform: "browser", format: "iife" });
    expect(inputs.length).toBeGreaterThan(5);
    expect(unwatched(inputs, VIEW_SOURCES)).toEqual([]);
  });

  it("watches every file the public viewer's script is built from", async () => {
    const inputs = await inputsOf(VIEWER_BUILD);
    expect(inputs.length).toBeGreaterThan(10);
    expect(unwatched(inputs, SITE_SOURCES)).toEqual([]);
  });
});
