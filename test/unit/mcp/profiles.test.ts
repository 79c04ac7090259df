/**
 * Tool profiles: each role profile names at most MAX_PROFILE_TOOLS (25) existing tools, every tool is in one, the
 * default follows from the settings (owner key only, a seat, a seat under a mandate), tools/list
 * and tools/call offer exactly the chosen ones, and `trestle mcp --tools` refuses a name that is
 * no tool with a usage error. No relay needed.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultProfile,
  MAX_PROFILE_TOOLS,
  PROFILES,
  profileTools,
  ROLE_PROFILES,
  selectTools,
} from "../../../src/mcp/profiles.js";
import { TOOLS } from "../../../src/mcp/tools/index.js";
import { cli } from "../../support/cli.js";
import { inProcess, makeHome, seatMandate, type Home, type Mcp } from "../../support/mcp.js";

const NOWHERE = "http://127.0.0.1:9";
let home: Home;
const open: Mcp[] = [];

beforeAll(async () => {
  home = await makeHome(NOWHERE, "tao", "bot-tao");
});
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
});

async function listed(profile: (typeof ROLE_PROFILES)[number] | "all"): Promise<string[]> {
  const mcp = await inProcess(home.settings, null, [], { tools: profileTools(profile) });
  open.push(mcp);
  return (await mcp.client.listTools()).tools.map((t) => t.name);
}

describe("the role profiles", () => {
  it("name only tools, at most MAX_PROFILE_TOOLS each, and every tool is in at least one", () => {
    const names = new Set(TOOLS.map((t) => t.name));
    for (const profile of ROLE_PROFILES) {
      expect(PROFILES[profile].filter((name) => !names.has(name))).toEqual([]);
      expect(new Set(PROFILES[profile]).size).toBe(PROFILES[profile].length);
      expect(PROFILES[profile].length).toBeLessThanOrEqual(MAX_PROFILE_TOOLS);
    }
    const covered = new Set<string>(ROLE_PROFILES.flatMap((p) => PROFILES[p]));
    expect(TOOLS.map((t) => t.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each([
    ["table", 22],
    ["room", 23],
    ["owner", 21],
    ["market", 25],
    ["all", TOOLS.length],
  ] as const)("tools/list in profile %s lists %i tools, in the registry's order", async (profile, count) => {
    const names = await listed(profile);
    expect(names).toHaveLength(count);
    expect(names).toEqual(TOOLS.map((t) => t.name).filter((name) => names.includes(name)));
  });
});

describe("the server's instructions to the model", () => {
  it.each([...ROLE_PROFILES, "all"] as const)("in profile %s name only tools the profile offers", async (profile) => {
    const mcp = await inProcess(home.settings, null, [], { tools: profileTools(profile) });
    open.push(mcp);
    const text = mcp.client.getInstructions() ?? "";
    const named = [...text.matchAll(/trestle_[a-z_]+[a-z]/g)]
      .map((m) => m[0])
      .filter((name) => name !== "trestle_room");
    expect(named.length).toBeGreaterThan(0);
    const offered = profileTools(profile).map((t) => t.name);
    expect(named.filter((name) => !offered.includes(name))).toEqual([]);
  });
});

describe("the default profile", () => {
  it("is owner without a seat key, table for a seat, room for a seat under a mandate at the active table", async () => {
    const { seat: _seat, seatKeyFile: _file, ...ownerOnly } = home.settings;
    expect(defaultProfile(ownerOnly)).toBe("owner");
    expect(defaultProfile(home.settings)).toBe("table");
    expect(defaultProfile({ ...home.settings, table: "t-profiles-plain" })).toBe("table");
    await seatMandate(home, "t-profiles-room", { money: { cap: 1000, currency: "TWD" } });
    expect(defaultProfile({ ...home.settings, table: "t-profiles-room" })).toBe("room");
  });
});

describe("--tools", () => {
  it("takes a profile, or tool names with or without the trestle_ prefix, listed in the registry's order", () => {
    expect(selectTools("room", home.settings)).toMatchObject({ profile: "room", tools: profileTools("room") });
    expect(selectTools(undefined, home.settings)).toMatchObject({ profile: "table" });
    const custom = selectTools("trestle_wait, read,say", home.settings);
    expect("tools" in custom && custom.tools.map((t) => t.name)).toEqual([
      "trestle_read",
      "trestle_wait",
      "trestle_say",
    ]);
  });

  describe("when a name is no tool", () => {
    it("selects nothing and names the unknown ones", () => {
      expect(selectTools("read,fly,trestle_swim", home.settings)).toEqual({ unknown: ["fly", "trestle_swim"] });
      expect(selectTools(",", home.settings)).toEqual({ unknown: [","] });
    });

    it("is a usage error from trestle mcp (exit 2) before anything is served", async () => {
      const run = await cli(home.dir, NOWHERE).run(["mcp", "--tools", "read,fly"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("no tool named fly");
      expect(run.stdout).toBe("");
    }, 30_000);
  });

  describe("when the model calls a tool its profile does not offer", () => {
    it("answers a protocol error naming --tools, and runs nothing", async () => {
      const mcp = await inProcess(home.settings, null, [], { tools: profileTools("room") });
      open.push(mcp);
      const error = await mcp.call("trestle_create_table", { config: {} }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
      expect((error as ProtocolError).message).toContain("trestle_create_table is not among this server's tools");
    });
  });
});

describe("trestle mcp --print-config with --tools", () => {
  it("starts the client's server with the same --tools", async () => {
    const run = await cli(home.dir, NOWHERE).run(["mcp", "--print-config", "claude", "--tools", "room"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).mcpServers.trestle.args.slice(1)).toEqual(["mcp", "--tools", "room"]);
  }, 30_000);
});
