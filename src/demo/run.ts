/** Process entry point of the bundled demo (dist/demo.mjs, run by scripts/demo.mjs): real streams and environment. */
import { main } from "./main.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
