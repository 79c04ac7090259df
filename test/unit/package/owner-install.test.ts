/**
 * The owner's command line as an outsider sets it up (README "Owners", docs/CLI.md "Running it",
 * issue 34): the tarball a relay serves (packed as scripts/build-pack.mjs packs it, served here by a
 * plain HTTP server at the relay's path) installed once into a prefix of the owner's, with no
 * warning; and run with npx as the docs write it (`--yes`, no terminal; `--prefer-offline`). Then the
 * relay is gone (whatever answers at its address knows nothing of it, and counts what reached it):
 * `trestle verify` of an export still works from the install and from npx's cache without one
 * request to it, and `trestle mcp --print-config` writes a command that outlives npx's cache.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packInto } from "../../../scripts/build-pack.mjs";
import { bigLedger } from "../../support/big-export.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const work = mkdtempSync(join(tmpdir(), "trestle-owner-"));
const prefix = join(work, "prefix");
const home = join(work, "home");
const exportFile = join(work, "export.jsonl");
let relayKey = "";
let server: Server;
let tarballUrl = "";
/** Whether the relay is gone; and the requests that reached its address since. */
let gone = false;
let requestsSinceGone = 0;

/** Runs `command` in an empty folder with no terminal (stdin closed); a non-zero exit is returned, not thrown. */
function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, TRESTLE_HOME: home, npm_config_update_notifier: "false" };
  return new Promise((resolve) => {
    const child = execFile(command, args, { cwd: work, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

beforeAll(async () => {
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
  const packed = packInto(work);
  const tarball = readFileSync(join(work, packed.filename));
  server = createServer((req, res) => {
    if (gone) requestsSinceGone += 1;
    if (!gone && req.url === `/${packed.filename}`)
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tarballUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${packed.filename}`;
  const ledger = await bigLedger(12);
  writeFileSync(exportFile, ledger.text);
  relayKey = ledger.relay.publicKeyText;
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const NPX = () => ["--yes", "--prefer-offline", "--package", tarballUrl, "trestle"];
const installedBin = () => join(prefix, "bin", "trestle");
const verifyArgs = () => ["verify", exportFile, "--relay-key", relayKey];

describe("the owner's command line, from the relay's tarball", { timeout: 120_000 }, () => {
  it("installs once into the owner's own prefix with no warning, its manifest without the checkout's scripts or devDependencies", async () => {
    const installed = await run("npm", [
      "install",
      "-g",
      "--prefix",
      prefix,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      tarballUrl,
    ]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/^npm warn/im);
    const manifest = JSON.parse(
      readFileSync(join(prefix, "lib", "node_modules", "trestle", "package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(Object.keys(manifest).filter((key) => ["scripts", "devDependencies", "allowScripts"].includes(key))).toEqual(
      [],
    );
    expect(await run(installedBin(), ["--version"])).toMatchObject({ code: 0, stdout: `trestle ${pkg.version}\n` });
  });

  it("runs with npx as the docs write it, with no terminal to answer a prompt", async () => {
    expect(await run("npx", [...NPX(), "--version"])).toMatchObject({ code: 0, stdout: `trestle ${pkg.version}\n` });
  });

  describe("when the relay is gone", () => {
    beforeAll(() => {
      gone = true;
    });

    it("verifies an export with the installed trestle, asking the relay nothing", async () => {
      const verified = await run(installedBin(), verifyArgs());
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toMatch(/^CLEAN/);
      expect(requestsSinceGone).toBe(0);
    });

    it("verifies an export with npx --prefer-offline from its cache, asking the relay nothing", async () => {
      const verified = await run("npx", [...NPX(), ...verifyArgs()]);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toMatch(/^CLEAN/);
      expect(requestsSinceGone).toBe(0);
    });

    it("prints an MCP config naming the installed launcher by its absolute path", async () => {
      const printed = await run(installedBin(), ["mcp", "--print-config", "claude"]);
      expect(printed.code, printed.stderr).toBe(0);
      const entry = JSON.parse(printed.stdout).mcpServers.trestle as { command: string; args: string[] };
      expect(entry.command).toMatch(/[\\/]node(\.exe)?$/);
      expect(entry.args).toEqual([
        realpathSync(join(prefix, "lib", "node_modules", "trestle", "bin", "trestle.mjs")),
        "mcp",
      ]);
    });

    it("prints an MCP config that runs npx with the relay's tarball, never a path into npx's cache", async () => {
      const printed = await run("npx", [...NPX(), "mcp", "--print-config", "claude"]);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).not.toContain("_npx");
      const entry = JSON.parse(printed.stdout).mcpServers.trestle as { command: string; args: string[] };
      expect(entry).toMatchObject({ type: "stdio", command: "npx", args: [...NPX(), "mcp"] });
      expect(requestsSinceGone).toBe(0);
    });

    it("npx without --prefer-offline asks the relay again (why the docs add it)", async () => {
      const before = requestsSinceGone;
      await run("npx", ["--yes", "--package", tarballUrl, "trestle", "--version"]);
      expect(requestsSinceGone).toBeGreaterThan(before);
    });
  });
});
