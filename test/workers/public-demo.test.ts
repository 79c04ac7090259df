/**
 * What /.well-known/trestle.json says about the operator's limits, and public-demo mode
 * (TRESTLE_PUBLIC_DEMO): the demo's short lifetimes and tight caps, `public_demo` in the features,
 * chat apps off unless the operator allows them. A malformed setting makes the relay refuse to run
 * (E_UNAVAILABLE) rather than run with a limit nobody meant. The Worker is run with the settings
 * each test gives it (`app.request` with its own environment).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index.js";
import { DEMO_LIMITS, LIMITS, OPERATOR_LIMITS } from "../../src/protocol/index.js";

/** The test pool's environment with every TRESTLE_LIMIT_* setting taken out, and `settings` added. */
function settings(extra: Record<string, string>): Record<string, unknown> {
  const base = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("TRESTLE_LIMIT_")));
  return { ...base, ...extra };
}

async function wellKnown(extra: Record<string, string>) {
  const res = await app.request("https://relay.test/.well-known/trestle.json", {}, settings(extra));
  return {
    status: res.status,
    body: (await res.json()) as {
      limits: Record<string, number>;
      features: string[];
      error?: { code: string; message: string };
    },
  };
}

describe("the published limits", () => {
  it("are the protocol's limits and the operator's defaults, each setting overriding its own", async () => {
    const { body } = await wellKnown({ TRESTLE_LIMIT_SEAT_WRITES_PER_MIN: "42" });
    expect(body.limits).toEqual({ ...LIMITS, ...OPERATOR_LIMITS, seat_writes_per_min: 42 });
    expect(body.features).not.toContain("public_demo");
  });
});

describe("a public demo", () => {
  it("publishes the demo's limits and says it is one", async () => {
    const { body } = await wellKnown({ TRESTLE_PUBLIC_DEMO: "true" });
    expect(body.limits).toEqual({ ...LIMITS, ...DEMO_LIMITS });
    expect(body.limits.table_ttl_ms).toBeGreaterThan(0);
    expect(body.limits.closed_table_ttl_ms).toBeGreaterThan(0);
    expect(body.features).toContain("public_demo");
  });

  it("turns chat apps off: no chat feature, bind codes and webhooks refused before anything is read", async () => {
    const demo = settings({ TRESTLE_PUBLIC_DEMO: "true" });
    expect(
      (await wellKnown({ TRESTLE_PUBLIC_DEMO: "true" })).body.features.filter((f) => f.startsWith("chat:")),
    ).toEqual([]);
    const bind = await app.request(
      `https://relay.test/owners/${"A".repeat(43)}/bind-codes`,
      { method: "POST", body: "{}", headers: { "content-type": "application/json" } },
      demo,
    );
    expect(bind.status).toBe(403);
    expect(await bind.json()).toMatchObject({
      error: { code: "E_FORBIDDEN", message: "chat apps are off on this public demo relay" },
    });
    const hook = await app.request("https://relay.test/hooks/telegram", { method: "POST", body: "{}" }, demo);
    expect(hook.status).toBe(403);
  });

  it("keeps chat apps on when the operator allows them (TRESTLE_DEMO_CHAT_APPS)", async () => {
    const { body } = await wellKnown({ TRESTLE_PUBLIC_DEMO: "true", TRESTLE_DEMO_CHAT_APPS: "true" });
    expect(body.features).toEqual(
      expect.arrayContaining(["public_demo", "chat:telegram", "chat:line", "chat:discord"]),
    );
  });
});

describe("mirrors and imports on a public demo", () => {
  it("are off: no custody or mirrors feature, replica pages and custody requests refused before the table sees them", async () => {
    const demo = settings({ TRESTLE_PUBLIC_DEMO: "true" });
    const { features } = (await wellKnown({ TRESTLE_PUBLIC_DEMO: "true" })).body;
    expect(features).not.toContain("custody");
    expect(features).not.toContain("mirrors");
    for (const path of ["/tables/demo-mirror/replica", "/tables/demo-mirror/custody"]) {
      const res = await app.request(
        `https://relay.test${path}`,
        { method: "POST", body: "{}", headers: { "content-type": "application/json" } },
        demo,
      );
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        error: { code: "E_FORBIDDEN", message: "mirrors and imports are off on this public demo relay" },
      });
    }
  });

  it("are on when the operator allows them (TRESTLE_DEMO_MIRRORS), and always on a relay that is no demo", async () => {
    expect((await wellKnown({ TRESTLE_PUBLIC_DEMO: "true", TRESTLE_DEMO_MIRRORS: "true" })).body.features).toEqual(
      expect.arrayContaining(["custody", "mirrors"]),
    );
    expect((await wellKnown({})).body.features).toEqual(expect.arrayContaining(["custody", "mirrors"]));
    const allowed = await app.request(
      "https://relay.test/tables/demo-mirror-on/replica",
      { method: "POST", body: "{}", headers: { "content-type": "application/json" } },
      settings({ TRESTLE_PUBLIC_DEMO: "true", TRESTLE_DEMO_MIRRORS: "true" }),
    );
    expect(await allowed.json()).toMatchObject({ error: { code: "E_SCHEMA" } });
  });
});

describe("when a setting is malformed", () => {
  it.each([
    ["TRESTLE_LIMIT_SEAT_WRITES_PER_MIN", "lots"],
    ["TRESTLE_LIMIT_OWNER_TABLES", "-1"],
    ["TRESTLE_LIMIT_SOCKET_AUTH_MS", "60000"],
    ["TRESTLE_PUBLIC_DEMO", "yes"],
  ])("answers E_UNAVAILABLE naming %s", async (name, value) => {
    const { status, body } = await wellKnown({ [name]: value });
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ code: "E_UNAVAILABLE", message: expect.stringContaining(name) });
  });
});
