/**
 * The package as a stranger gets it: this checkout packed as the relay serves it (scripts/build-pack.mjs),
 * installed from the tarball into an empty project (its dependencies from npm's cache where it has them), then the twenty-line bot
 * of docs/CLIENT.md importing "trestle" runs a debate against a real relay from there; its types
 * check under Node's and a bundler's module resolution from declared types, and need no
 * @types/node (only the bot's own `process` does, and TypeScript says so); its browser entry
 * bundles for browsers with nothing of Node in it; it exports TrestleError; the `trestle` bin
 * prints its version, and so does the copy a relay serves, run with npx from an empty folder; and
 * on the oldest Node the package declares (engines, 20.3, while the checkout works on 22) the
 * installed command runs, MCP server included, answering an SDK client of each revision.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { build, transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packInto } from "../../../scripts/build-pack.mjs";
import { createKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { sha256, utf8 } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { NODE_FLOOR, nodeFloor, withNode } from "../../support/node-versions.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
/** The bot of docs/CLIENT.md, importing the package instead of the source. */
const BOT = readFileSync(join(ROOT, "examples/seat-bot.ts"), "utf8").replace('"../src/client/node.js"', '"trestle"');

let relay: LocalRelay;
let project: string;
let files: string[];

beforeAll(async () => {
  // The build first: it packs the client the relay serves into the static files each relay copies when it starts.
  await run(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT });
  const installed = async () => {
    const out = mkdtempSync(join(tmpdir(), "trestle-pack-"));
    const packed = packInto(out);
    files = packed.files.map((f) => f.path);
    project = join(out, "bot-project");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "bot-project", private: true, type: "module" }),
    );
    await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(out, packed.filename)],
      { cwd: project },
    );
  };
  [relay] = await Promise.all([startRelay(), installed()]);
}, 300_000);
afterAll(() => relay?.dispose());

/** Runs node with `args` in the project with only `env` (and PATH); a non-zero exit is returned, not thrown. */
async function node(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const options = { cwd: project, env: { PATH: process.env.PATH ?? "", ...env } };
  return run(process.execPath, args, options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe("the packed package", () => {
  it("ships the built library with its declarations, the CLI bundle and its bin, and no source or tests", () => {
    for (const file of [
      "bin/trestle.mjs",
      "dist/trestle.mjs",
      "dist/lib/client/index.js",
      "dist/lib/client/index.d.ts",
      "dist/lib/client/node.js",
      "dist/lib/client/node.d.ts",
      "dist/lib/protocol/index.js",
      "package.json",
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /^(src|test|worker|durable-objects|scripts)\//.test(f))).toEqual([]);
  });

  it("runs the twenty-line bot from docs/CLIENT.md, importing trestle, through a whole debate", async () => {
    writeFileSync(join(project, "bot.mjs"), (await transform(BOT, { loader: "ts", format: "esm" })).code);
    const table = uniqueTable("pack");
    const client = await tableClient(relay.url, table);
    await seatDebate(client, {
      topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
    });
    const home = mkdtempSync(join(tmpdir(), "trestle-pack-home-"));
    const seats = ["bot-tao", "bot-jenny", "judge"];
    for (const seat of seats)
      await createKeyFile(seatKeyPath(home, seat), "seat", seat, { seed: sha256(utf8(`seat:${seat}`)) });
    const runs = await Promise.all(
      seats.map((seat) =>
        node(["bot.mjs"], { TRESTLE_HOME: home, TRESTLE_RELAY: relay.url, TRESTLE_TABLE: table, TRESTLE_SEAT: seat }),
      ),
    );
    for (const r of runs) {
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^wrote #\d+\n/);
      expect(r.stdout).toMatch(/the table closed: rounds_exhausted\n$/);
    }
  }, 30_000);

  describe("type-checking a consumer (a missing declaration would be an error under strict)", () => {
    /** Runs this checkout's tsc on `files` of the project under `options`; its diagnostics, "" when clean. */
    async function typecheck(files: Record<string, string>, options: Record<string, unknown>): Promise<string> {
      const dir = mkdtempSync(join(project, "tsc-"));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const compilerOptions = {
        strict: true,
        noEmit: true,
        target: "es2022",
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
        // As most projects do: the package's own declarations are not re-checked, only their use here.
        skipLibCheck: true,
        ...options,
      };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
      const checked = await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir]).catch(
        (error: { stdout: string }) => error,
      );
      return checked.stdout;
    }
    const NODENEXT = { module: "nodenext", moduleResolution: "nodenext" };
    const BUNDLER = { module: "esnext", moduleResolution: "bundler" };

    it("types the bot's Node helpers under Node's module resolution", async () => {
      expect(await typecheck({ "bot.ts": BOT }, NODENEXT)).toBe("");
    }, 120_000);

    it("types the bot's Node helpers under a bundler's module resolution", async () => {
      expect(await typecheck({ "bot.ts": BOT }, BUNDLER)).toBe("");
    }, 120_000);

    describe("when the project has no @types/node", () => {
      const WITHOUT_NODE_TYPES = { ...NODENEXT, types: [], typeRoots: [], skipLibCheck: false };
      /** The bot's library calls alone: no `process`, nothing but what "trestle" exports. */
      const LIBRARY_ONLY = [
        'import { openTable, readKeyFile, runSeat, seatKeyPath, trestleHome } from "trestle";',
        'const client = await openTable({ relay: "http://127.0.0.1:8787", table: "t-1" });',
        'const { signer } = await readKeyFile(seatKeyPath(trestleHome(), "bot-you"), "seat");',
        'const run = await runSeat(() => ({ kind: "say", body: "hello" }), { client, seat: "bot-you", signer });',
        "export const closed = run.closed;",
        "",
      ].join("\n");

      // One compiler run for both files: checking the declarations too (no skipLibCheck) is most of its time.
      it("types the Node entry's declarations, checked too, with TypeScript's own libraries; only the bot's own process needs @types/node, and tsc says so", async () => {
        const errors = (await typecheck({ "use.ts": LIBRARY_ONLY, "bot.ts": BOT }, WITHOUT_NODE_TYPES))
          .trim()
          .split("\n");
        expect(errors.length).toBeGreaterThan(0);
        for (const error of errors) {
          expect(error).toMatch(
            /\/bot\.ts\(\d+,\d+\): error TS25\d\d: Cannot find name 'process'\. Do you need to install type definitions for node\? Try `npm i --save-dev @types\/node`/,
          );
        }
      }, 120_000);
    });

    it("types the portable entry, without the Node helpers, for a bundler with the browser condition", async () => {
      const page = 'import { runSeat, readKeyFile } from "trestle";\nexport const used = [runSeat, readKeyFile];\n';
      expect(await typecheck({ "page.ts": page }, { ...BUNDLER, customConditions: ["browser"] })).toMatch(
        /page\.ts\(1,19\): error TS2305: Module '"trestle"' has no exported member 'readKeyFile'/,
      );
    }, 120_000);

    it("declares the wire types and schemas as plain types, with no zod object type spelled out", async () => {
      const lib = join(project, "node_modules/trestle/dist/lib");
      const spelled = readdirSync(lib, { recursive: true })
        .map(String)
        .filter((file) => file.endsWith(".d.ts") && readFileSync(join(lib, file), "utf8").includes("z.ZodObject<"));
      expect(spelled).toEqual([]);
      const use =
        'import { EntrySchema, type Entry } from "trestle/protocol";\nconst entry: Entry = EntrySchema.parse(JSON.parse("{}"));\nexport const kind: string = entry.kind;\n';
      expect(await typecheck({ "use.ts": use }, NODENEXT)).toBe("");
    }, 120_000);
  });

  it("exports TrestleError and the error codes from the Node and the browser entries", async () => {
    const probe = (entry: string) =>
      `import { TrestleError, ERROR_CODES } from "${entry}";\nconst e = new TrestleError("E_AUTH");\nconsole.log(JSON.stringify([e instanceof Error, e.name, e.code, e.message === ERROR_CODES.E_AUTH.message]));\n`;
    for (const entry of ["trestle", "trestle/browser"]) {
      writeFileSync(join(project, "errors.mjs"), probe(entry));
      expect(await node(["errors.mjs"], {})).toEqual({
        code: 0,
        stdout: '[true,"TrestleError","E_AUTH",true]\n',
        stderr: "",
      });
    }
  });

  it("bundles its browser entry for browsers with no Node module in it", async () => {
    for (const entry of [
      'export { runSeat, HttpClient, TableClient } from "trestle";',
      'export * from "trestle/browser";',
    ]) {
      const bundled = await build({
        stdin: { contents: entry, resolveDir: project },
        bundle: true,
        platform: "browser",
        format: "esm",
        write: false,
        external: ["ws"],
        logLevel: "silent",
      });
      const text = bundled.outputFiles[0]!.text;
      expect(text).not.toMatch(/from\s*"node:|require\("node:|import\("node:/);
    }
  });

  it("runs the trestle command the relay serves with npx, from an empty folder, after checking its integrity", async () => {
    const info = (await (await fetch(`${relay.url}/trestle.json`)).json()) as {
      name: string;
      version: string;
      tarball: string;
      integrity: string;
    };
    expect(info).toEqual({
      name: "trestle",
      version: pkg.version,
      tarball: `/trestle-${pkg.version}.tgz`,
      integrity: expect.stringMatching(/^sha512-[A-Za-z0-9+/]{86}==$/),
    });
    const tarball = Buffer.from(await (await fetch(`${relay.url}${info.tarball}`)).arrayBuffer());
    expect(`sha512-${createHash("sha512").update(tarball).digest("base64")}`).toBe(info.integrity);
    const empty = mkdtempSync(join(tmpdir(), "trestle-npx-"));
    const npx = await run(
      "npx",
      ["--yes", "--prefer-offline", "--package", `${relay.url}${info.tarball}`, "trestle", "--version"],
      { cwd: empty },
    );
    expect(npx.stdout).toBe(`trestle ${pkg.version}\n`);
  }, 60_000);

  it("installs the trestle command, which prints its version", async () => {
    const bin = await node([join(project, "node_modules/trestle/bin/trestle.mjs"), "--version"], {});
    expect(bin).toEqual({ code: 0, stdout: `trestle ${pkg.version}\n`, stderr: "" });
  });

  withNode(nodeFloor(), (floor) => {
    it("runs on the oldest Node it declares: the command, and its MCP server to a client of each revision", async () => {
      expect((await run(floor, ["-p", "process.versions.node"])).stdout.trim()).toMatch(
        new RegExp(`^${NODE_FLOOR.replace(".", "\\.")}\\.`),
      );
      const bin = join(project, "node_modules/trestle/bin/trestle.mjs");
      expect((await run(floor, [bin, "--version"], { cwd: project })).stdout).toBe(`trestle ${pkg.version}\n`);
      const home = mkdtempSync(join(tmpdir(), "trestle-floor-"));
      await run(floor, [bin, "--home", home, "keygen", "--owner", "tao"], { cwd: project });
      for (const revision of ["2025-11-25", "2026-07-28"] as const) {
        const versionNegotiation = revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : {};
        const client = new Client({ name: "floor", version: "1.0.0" }, versionNegotiation);
        const env = { PATH: process.env.PATH ?? "", TRESTLE_HOME: home, TRESTLE_OWNER: "tao", TRESTLE_URL: relay.url };
        await client.connect(
          new StdioClientTransport({ command: floor, args: [bin, "mcp"], env, cwd: project, stderr: "ignore" }),
        );
        try {
          expect(client.getProtocolEra()).toBe(revision === "2026-07-28" ? "modern" : "legacy");
          expect((await client.listTools()).tools.map((t) => t.name)).toContain("trestle_create_table");
          expect(
            JSON.parse(
              (await client.readResource({ uri: "trestle://server" })).contents
                .map((c) => ("text" in c ? c.text : ""))
                .join(""),
            ),
          ).toMatchObject({ relay: relay.url, owner: "tao" });
        } finally {
          await client.close();
        }
      }
    }, 60_000);
  });
});
