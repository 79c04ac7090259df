/**
 * `npm start` as a checkout's reader runs it (README "Quick start", docs/SELF-HOST.md "Running it
 * locally"): the relay on 127.0.0.1:8787 unless they pass `-- --port N`, which then serves on N.
 * The real `npm start` (the build, then `wrangler dev`) in its own process group, with its storage
 * in a folder of the test's own, stopped at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../support/free-port.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const storage = mkdtempSync(join(tmpdir(), "trestle-start-"));
let stop: (() => Promise<void>) | undefined;

afterAll(async () => {
  await stop?.();
  rmSync(storage, { recursive: true, force: true });
});

/** Runs `npm start -- ...args` until wrangler says it is ready (its URL) or exits (its output, thrown). */
function npmStart(args: string[]): Promise<string> {
  const child = spawn("npm", ["start", "--", ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const ready = /Ready on (http:\/\/\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => reject(new Error(`npm start exited before the relay was ready:\n${output}`)));
  });
}

describe("npm start", () => {
  it("serves the relay on the port given after --", async () => {
    const port = await freePort();
    const url = await npmStart(["--port", String(port), "--persist-to", storage]);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const known = (await (await fetch(`${url}/.well-known/trestle.json`)).json()) as { protocol: string };
    expect(known.protocol).toBe("trestle/0.1");
  }, 120_000);
});
