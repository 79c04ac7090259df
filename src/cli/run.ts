/** Process entry point of the bundled CLI (dist/trestle.mjs): real streams, environment and clock. */
import { main } from "./main.js";
import { catchProcessFailures } from "./process-failures.js";

catchProcessFailures(process, process.argv.includes("--json"));

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdin: readStdin,
  clock: () => Date.now(),
});
process.exitCode = code;
