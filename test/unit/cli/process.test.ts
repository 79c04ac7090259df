/**
 * The `trestle` process as a person meets it (issue 5): it runs as `npx trestle` from the
 * repository, colours a stream only when that stream is a terminal and NO_COLOR is unset, keeps
 * key files 0600 in 0700 directories inside its home, and never prints a stack trace, not even when
 * the reader of its output goes away or a path is not a file.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(REPO, "bin", "trestle.mjs");
const ESC = "\u001b[";

/** Runs `command` in bash with a fresh home; `tty` runs it under a pseudo-terminal (util-linux `script`). */
function sh(command: string, options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const home = mkdtempSync(join(tmpdir(), "trestle-proc-"));
  const env = { PATH: process.env.PATH ?? "", TRESTLE_HOME: home, ...options.env };
  const run = options.tty
    ? spawnSync("script", ["-qec", command, "/dev/null"], { env, encoding: "utf8" })
    : spawnSync("bash", ["--norc", "--noprofile", "-c", command], { env, encoding: "utf8" });
  return { ...run, home };
}

const trestle = `"${process.execPath}" "${BIN}"`;

describe("the trestle process", () => {
  it("runs as `npx trestle` from the repository", () => {
    const run = spawnSync("npm", ["exec", "--offline", "--no", "--", "trestle", "help"], {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("usage: trestle <command>");
  });

  it("colours its errors on a terminal", () => {
    const run = sh(`${trestle} say hi`, { tty: true });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain(`${ESC}31m`);
    expect(run.stdout).toContain("error E_USAGE");
  });

  it("creates key directories 0700 and key files 0600", () => {
    const run = sh(`${trestle} keygen --owner ops && ${trestle} keygen --seat bot-ops`);
    expect(run.status).toBe(0);
    for (const dir of ["owners", "seats"]) expect(statSync(join(run.home, dir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(run.home, "owners", "ops.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(run.home, "seats", "bot-ops.json")).mode & 0o777).toBe(0o600);
  });

  describe("when colour is not wanted", () => {
    it("prints no escape sequence with NO_COLOR set, even on a terminal", () => {
      const run = sh(`${trestle} say hi`, { tty: true, env: { NO_COLOR: "1" } });
      expect(run.stdout).toContain("error E_USAGE");
      expect(run.stdout).not.toContain(ESC);
    });

    it("prints no escape sequence to stderr redirected to a file while stdout is a terminal", () => {
      const run = sh(`${trestle} say hi 2>"$TRESTLE_HOME/err.txt"`, { tty: true });
      const err = readFileSync(join(run.home, "err.txt"), "utf8");
      expect(err).toMatch(/^error E_USAGE: --table is required/);
      expect(err).not.toContain(ESC);
    });
  });

  describe("when a name is a path", () => {
    it("refuses an owner or seat name outside the protocol's alphabet (E_SCHEMA, exit 3) and writes nothing outside the home", () => {
      for (const flag of ["--owner", "--seat"]) {
        const run = sh(`${trestle} keygen ${flag} "../../escaped"`);
        expect(run.status).toBe(3);
        expect(run.stderr).toMatch(/^error E_SCHEMA: the key file of (owner|seat) "\.\.\/\.\.\/escaped"/m);
        expect(existsSync(join(run.home, "..", "escaped.json"))).toBe(false);
        expect(existsSync(join(run.home, "escaped.json"))).toBe(false);
      }
    });
  });

  describe("when the reader of its output goes away", () => {
    it("ends quietly with no stack trace", () => {
      const run = sh(`${trestle} help | true; echo "exit \${PIPESTATUS[0]}"`);
      expect(run.stdout.trim()).toBe("exit 0");
      expect(run.stderr).toBe("");
    });
  });

  describe("when verify is given a path that is not a readable export", () => {
    it.each([
      ["a directory", "/", /^error E_USAGE: cannot read the export \/: /m],
      [
        "a missing file that is no table id either",
        "./no/such/export.jsonl",
        /^error E_USAGE: no file \.\/no\/such\/export\.jsonl, and it is not a table id/m,
      ],
    ])("exits 2 for %s, not as a bug", (_, path, message) => {
      const run = sh(`${trestle} verify "${path}"`);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/^\s+at .+:\d+/m);
    });
  });
});
