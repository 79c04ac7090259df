/**
 * Global flags (docs/CLI.md "Global flags and environment") work wherever they are written: before
 * the command, between a family and its verb, and after it, each with the same effect.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GLOBAL_FLAGS } from "../../../src/cli/args.js";
import { main } from "../../../src/cli/main.js";
import { spawnedCli } from "../../support/cli.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process with `argv`, its home set by TRESTLE_HOME to `home`; `tty` makes both streams terminals. */
async function run(argv: readonly string[], home: string, tty = false): Promise<Run> {
  const sink = () => ({
    isTTY: tty,
    text: "",
    write(t: string) {
      this.text += t;
    },
  });
  const stdout = sink();
  const stderr = sink();
  const code = await main(argv, {
    stdout,
    stderr,
    env: { TRESTLE_HOME: home },
    stdin: async () => "",
    clock: () => Date.now(),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const fresh = () => mkdtempSync(join(tmpdir(), "trestle-global-"));

/** The command with `flag` written before it and after it. */
const placements = (flag: readonly string[], command: readonly string[]) =>
  [
    ["before the command", [...flag, ...command]],
    ["after the command", [...command, ...flag]],
  ] as const;

describe("global flags", () => {
  it("are the ones this file tests", () => {
    expect(Object.keys(GLOBAL_FLAGS).sort()).toEqual(["help", "home", "json", "no-color", "relay"]);
  });

  describe.each(placements(["--json"], ["keygen", "--owner", "ops"]))("--json %s", (_, argv) => {
    it("prints one JSON document", async () => {
      const got = await run(argv, fresh());
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toMatchObject({ role: "owner", name: "ops", public_key: expect.any(String) });
    });
  });

  for (const form of [["--home", "DIR"], ["--home=DIR"]]) {
    describe.each(placements(form, ["keygen", "--owner", "ops"]))(`${form.join(" ")} %s`, (_, argv) => {
      it("puts the key under that home, not under TRESTLE_HOME", async () => {
        const [home, env] = [fresh(), fresh()];
        const got = await run(
          argv.map((a) => a.replace("DIR", home)),
          env,
        );
        expect(got.code).toBe(0);
        expect(existsSync(join(home, "owners", "ops.json"))).toBe(true);
        expect(existsSync(join(env, "owners", "ops.json"))).toBe(false);
      });
    });
  }

  describe.each(placements(["--relay", "http://relay.example:9"], ["pin", "--forget", "--json"]))(
    "--relay %s",
    (_, argv) => {
      it("names that relay", async () => {
        const got = await run(argv, fresh());
        expect(got.code).toBe(0);
        expect(JSON.parse(got.stdout)).toEqual({ url: "http://relay.example:9", forgot: false });
      });
    },
  );

  describe.each(placements(["--no-color"], ["keygen", "--owner", "ops"]))("--no-color %s", (_, argv) => {
    it("prints no escape sequence to a terminal, which is coloured without it", async () => {
      expect((await run(["keygen", "--owner", "ops"], fresh(), true)).stdout).toContain("\u001b[1m");
      const got = await run(argv, fresh(), true);
      expect(got.code).toBe(0);
      expect(got.stdout).toContain("owner key for ops");
      expect(got.stdout).not.toContain("\u001b");
    });
  });

  for (const flag of ["--help", "-h"]) {
    describe.each(placements([flag], ["keygen"]))(`${flag} %s`, (_, argv) => {
      it("shows the command's help", async () => {
        const got = await run(argv, fresh());
        expect(got.code).toBe(0);
        expect(got.stdout).toContain("usage: trestle keygen");
      });
    });
  }

  it("works between a family and its verb, and several at once before the command", async () => {
    const home = fresh();
    const between = await run(["room", "--json", "show", "--help"], home);
    expect(between.code).toBe(0);
    expect(JSON.parse(between.stdout)).toMatchObject({ help: "room show" });
    const several = await run(["--json", "--home", home, "--no-color", "keygen", "--owner", "tao"], fresh());
    expect(JSON.parse(several.stdout)).toMatchObject({ name: "tao" });
    expect(existsSync(join(home, "owners", "tao.json"))).toBe(true);
  });

  it("answers --version after global flags, and help for global flags alone", async () => {
    expect(JSON.parse((await run(["--json", "--version"], fresh())).stdout)).toEqual({ version: expect.any(String) });
    const help = await run(["--json", "--help"], fresh());
    expect(help.code).toBe(0);
    expect(JSON.parse(help.stdout)).toEqual({ help: null });
    expect((await run(["--home", fresh()], fresh())).code).toBe(2);
  });

  describe("when a command's own flag comes before the command", () => {
    it("says so, as a usage error", async () => {
      const got = await run(["--json", "--owner", "ops", "keygen"], fresh());
      expect(got.code).toBe(2);
      expect(JSON.parse(got.stdout).error).toMatchObject({
        code: "E_USAGE",
        message: expect.stringContaining("--owner is no global flag"),
      });
    });
  });

  it("runs trestle --json keygen as the real process does", async () => {
    const home = fresh();
    const got = await spawnedCli(home, "http://127.0.0.1:9").run(["--json", "keygen", "--owner", "ops"]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ role: "owner", name: "ops" });
  });
});
