/** The MCP server's settings (environment, config file, flags) and the snippets `trestle mcp --print-config` prints. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../../src/mcp/config.js";
import { printConfig, settingsEnv, TOKEN_ENV, urlConfig } from "../../../src/mcp/print-config.js";
import { cli } from "../../support/cli.js";

const DEFAULT = "http://127.0.0.1:8787";

function dir(): string {
  return mkdtempSync(join(tmpdir(), "trestle-mcp-config-"));
}

describe("resolveSettings", () => {
  it("derives key files from the owner and seat names under the home", () => {
    const home = dir();
    const settings = resolveSettings({
      env: { TRESTLE_HOME: home, TRESTLE_OWNER: "tao", TRESTLE_SEAT: "bot-tao", TRESTLE_TABLE: "t-459" },
      flags: {},
      defaultRelay: DEFAULT,
    });
    expect(settings).toEqual({
      url: DEFAULT,
      home,
      table: "t-459",
      owner: "tao",
      ownerKeyFile: join(home, "owners", "tao.json"),
      seat: "bot-tao",
      seatKeyFile: join(home, "seats", "bot-tao.json"),
    });
  });

  it("reads a config file with paths relative to it; the environment overrides it and flags override both", () => {
    const base = dir();
    mkdirSync(join(base, "conf"));
    const file = join(base, "conf", "mcp.json");
    writeFileSync(
      file,
      JSON.stringify({
        url: "https://file.example",
        table: "t-file",
        owner_key_file: "keys/owner.json",
        card_file: "card.json",
        home: "home",
      }),
    );
    const fromFile = resolveSettings({ env: { TRESTLE_MCP_CONFIG: file }, flags: {}, defaultRelay: DEFAULT });
    expect(fromFile).toMatchObject({
      url: "https://file.example",
      table: "t-file",
      home: join(base, "conf", "home"),
      ownerKeyFile: join(base, "conf", "keys", "owner.json"),
      cardFile: join(base, "conf", "card.json"),
    });
    const overridden = resolveSettings({
      env: { TRESTLE_URL: "https://env.example", TRESTLE_TABLE: "t-env" },
      flags: { config: file, relay: "https://flag.example" },
      defaultRelay: DEFAULT,
    });
    expect(overridden).toMatchObject({ url: "https://flag.example", table: "t-env" });
  });

  it("lets the model open sub-tables only when the owner says so: TRESTLE_ALLOW_SUBTABLES over allow_subtables in the file", () => {
    const file = join(dir(), "mcp.json");
    writeFileSync(file, JSON.stringify({ allow_subtables: true }));
    const resolve = (env: Record<string, string>) =>
      resolveSettings({ env, flags: {}, defaultRelay: DEFAULT }).allowSubtables;
    expect(resolve({})).toBeUndefined();
    expect(resolve({ TRESTLE_MCP_CONFIG: file })).toBe(true);
    expect(resolve({ TRESTLE_MCP_CONFIG: file, TRESTLE_ALLOW_SUBTABLES: "0" })).toBe(false);
    expect(resolve({ TRESTLE_ALLOW_SUBTABLES: "true" })).toBe(true);
    expect(() => resolve({ TRESTLE_ALLOW_SUBTABLES: "yes" })).toThrow(
      /TRESTLE_ALLOW_SUBTABLES must be 1, true, 0 or false, not "yes"/,
    );
    expect(settingsEnv({ url: DEFAULT, home: "/h", allowSubtables: true })).toMatchObject({
      TRESTLE_ALLOW_SUBTABLES: "true",
    });
  });

  it("lets the model revoke the owner's seats only when the owner says so: TRESTLE_ALLOW_REVOKE over allow_revoke in the file", () => {
    const file = join(dir(), "mcp.json");
    writeFileSync(file, JSON.stringify({ allow_revoke: true }));
    const resolve = (env: Record<string, string>) =>
      resolveSettings({ env, flags: {}, defaultRelay: DEFAULT }).allowRevoke;
    expect(resolve({})).toBeUndefined();
    expect(resolve({ TRESTLE_MCP_CONFIG: file })).toBe(true);
    expect(resolve({ TRESTLE_MCP_CONFIG: file, TRESTLE_ALLOW_REVOKE: "0" })).toBe(false);
    expect(() => resolve({ TRESTLE_ALLOW_REVOKE: "yes" })).toThrow(
      /TRESTLE_ALLOW_REVOKE must be 1, true, 0 or false, not "yes"/,
    );
    expect(settingsEnv({ url: DEFAULT, home: "/h", allowRevoke: true })).toMatchObject({
      TRESTLE_ALLOW_REVOKE: "true",
    });
  });

  it("falls back to the CLI's TRESTLE_RELAY, then the default relay", () => {
    expect(
      resolveSettings({ env: { TRESTLE_RELAY: "https://cli.example" }, flags: {}, defaultRelay: DEFAULT }).url,
    ).toBe("https://cli.example");
    expect(resolveSettings({ env: {}, flags: {}, defaultRelay: DEFAULT }).url).toBe(DEFAULT);
  });

  describe("when the settings are wrong", () => {
    it.each([
      ["an unknown key in the file", { seat_key: "x" }, /Unrecognized key/],
      ["a bad table id in the file", { table: "T!" }, /table/],
    ])("refuses %s with E_SCHEMA naming the file", (_what, content, message) => {
      const file = join(dir(), "mcp.json");
      writeFileSync(file, JSON.stringify(content));
      expect(() => resolveSettings({ env: {}, flags: { config: file }, defaultRelay: DEFAULT })).toThrow(
        expect.objectContaining({ code: "E_SCHEMA", message: expect.stringMatching(message) }),
      );
    });

    it("refuses a bad seat name from the environment", () => {
      expect(() => resolveSettings({ env: { TRESTLE_SEAT: "Bot Tao" }, flags: {}, defaultRelay: DEFAULT })).toThrow(
        expect.objectContaining({ code: "E_SCHEMA" }),
      );
    });
  });
});

describe("printConfig", () => {
  const launch = { command: "/usr/bin/node", args: ["/opt/trestle/bin/trestle.mjs", "mcp"] };
  const env = settingsEnv({
    url: "https://relay.example",
    home: "/home/tao/.config/trestle",
    table: "t-459",
    seat: "bot-tao",
    seatKeyFile: '/home/tao/keys/"bot".json',
  });

  it("prints Claude Code's .mcp.json entry: a stdio server with its environment", () => {
    const snippet = printConfig("claude", launch, env);
    expect(JSON.parse(snippet.text)).toEqual({
      mcpServers: { trestle: { type: "stdio", command: launch.command, args: launch.args, env } },
    });
    expect(snippet.where).toContain(".mcp.json");
  });

  it("prints Cursor's mcp.json entry", () => {
    const snippet = printConfig("cursor", launch, env);
    expect(JSON.parse(snippet.text)).toEqual({
      mcpServers: { trestle: { command: launch.command, args: launch.args, env } },
    });
    expect(snippet.where).toContain("~/.cursor/mcp.json");
  });

  it("prints Codex's config.toml tables with every value a quoted TOML string", () => {
    const lines = printConfig("codex", launch, env).text.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "[mcp_servers.trestle]",
      'command = "/usr/bin/node"',
      'args = ["/opt/trestle/bin/trestle.mjs", "mcp"]',
      "",
      "[mcp_servers.trestle.env]",
    ]);
    const values = Object.fromEntries(
      lines
        .slice(5)
        .map((line) => [line.slice(0, line.indexOf(" = ")), JSON.parse(line.slice(line.indexOf(" = ") + 3)) as string]),
    );
    expect(values).toEqual(env);
  });

  it("prints a URL server's entry for trestle mcp --http: the URL, and the token as each client takes it", () => {
    const url = "http://127.0.0.1:41237/mcp";
    const headers = { Authorization: "Bearer tok" };
    expect(JSON.parse(urlConfig("claude", url, "tok").text).mcpServers.trestle).toEqual({ type: "http", url, headers });
    expect(JSON.parse(urlConfig("cursor", url, "tok").text).mcpServers.trestle).toEqual({ url, headers });
    const codex = urlConfig("codex", url, "tok");
    expect(codex.text.split("\n")).toEqual([
      "[mcp_servers.trestle]",
      `url = "${url}"`,
      `bearer_token_env_var = "${TOKEN_ENV}"`,
    ]);
    expect(codex.where).toContain(TOKEN_ENV);
  });

  it("is what `trestle mcp --print-config` prints, and a wrong client is a usage error", async () => {
    const home = dir();
    const t = cli(home, DEFAULT);
    const run = await t.run(["mcp", "--print-config", "cursor"], { env: { TRESTLE_SEAT: "bot-tao" } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).mcpServers.trestle.env).toMatchObject({
      TRESTLE_SEAT: "bot-tao",
      TRESTLE_SEAT_KEY_FILE: join(home, "seats", "bot-tao.json"),
    });
    expect(run.stderr).toContain("~/.cursor/mcp.json");
    const wrong = await t.run(["mcp", "--print-config", "vim"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--print-config takes claude, codex or cursor");
  }, 30_000);
});
