/**
 * The Worker's `Env` is generated from wrangler.toml by `wrangler types` into
 * worker-configuration.d.ts (decision 0362), and committed: this fails when wrangler.toml changed
 * and the file was not regenerated with `npm run types`.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import pkg from "../../../package.json" with { type: "json" };

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WRANGLER = fileURLToPath(new URL("../../../node_modules/wrangler/bin/wrangler.js", import.meta.url));

describe("worker-configuration.d.ts", () => {
  it("is what `npm run types` generates from wrangler.toml now", async () => {
    const args = pkg.scripts.types.split(" ").slice(1);
    expect(args[0]).toBe("types");
    const run = promisify(execFile)(process.execPath, [WRANGLER, ...args, "--check"], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    await expect(run).resolves.toMatchObject({ stdout: expect.stringContaining("up to date") });
  }, 120_000);
});
