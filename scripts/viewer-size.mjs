/**
 * `node scripts/viewer-size.mjs`: the size of the public viewer's script (/assets/viewer.js,
 * scripts/build-site.mjs), unpacked and gzipped, with what zod and the protocol take of it
 * (docs/BENCHMARKS.md). test/unit/site/viewer-size.test.ts checks what goes into it the same way.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { VIEWER_BUILD } from "./build-site.mjs";

/** The viewer bundled as the build bundles it: its bytes, gzipped bytes, and bytes per input file. */
export async function viewerBundle() {
  const { build } = await import("esbuild");
  const result = await build({ ...VIEWER_BUILD, outfile: "viewer.js", write: false, metafile: true });
  const [output] = Object.values(result.metafile.outputs);
  const bytes = result.outputFiles[0].contents;
  const inputs = Object.fromEntries(
    Object.entries(output.inputs).map(([file, { bytesInOutput }]) => [file, bytesInOutput]),
  );
  return { bytes: bytes.byteLength, gzip: gzipSync(bytes).byteLength, inputs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bytes, gzip, inputs } = await viewerBundle();
  const part = (test) =>
    Object.entries(inputs)
      .filter(([file]) => test(file))
      .reduce((sum, [, n]) => sum + n, 0);
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `viewer.js: ${kb(bytes)} unpacked, ${kb(gzip)} gzipped; zod ${kb(part((f) => f.includes("/zod/")))} (its locales ${kb(part((f) => f.includes("/zod/v4/locales/")))}), src ${kb(part((f) => f.startsWith("src/")))}`,
  );
}
