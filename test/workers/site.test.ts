/**
 * What the relay says about itself: the index at `/` by content negotiation (JSON for programs,
 * the landing page for browsers), /.well-known/trestle.json with version and features, the A2A
 * agent card, and the viewer's page routes. (The pages' behaviour in a browser: test/unit/site.)
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WellKnownSchema } from "../../src/protocol/index.js";
import { agentCard } from "../../worker/site/agent-card.js";
import { BUILT_IN_FEATURES, MIRROR_FEATURES, VERSION } from "../../worker/site/relay-info.js";
import pkg from "../../package.json" with { type: "json" };

const get = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`https://relay.test${path}`, { headers, redirect: "manual" });

describe("the index at /", () => {
  it.each([
    ["no Accept header", {}],
    ["Accept: application/json", { accept: "application/json" }],
    ["Accept: */*", { accept: "*/*" }],
    ["JSON preferred over HTML", { accept: "application/json, text/html;q=0.5" }],
  ])("stays JSON for %s", async (_, headers) => {
    const res = await get("/", headers);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("vary")).toBe("Accept");
    expect(await res.json()).toEqual({
      name: "trestle",
      protocol: "trestle/0.1",
      well_known: "/.well-known/trestle.json",
    });
  });

  it("is the landing page for a browser, with the relay key and version, under a policy that allows nothing but this relay", async () => {
    const known = WellKnownSchema.parse(await (await get("/.well-known/trestle.json")).json());
    const res = await get("/", { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" });
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).toContain(`<code id="relay-key">${known.relay_key}</code>`);
    expect(html).toContain(`<code id="relay-version">${VERSION}</code>`);
    expect(html).toContain("&#34;TRESTLE_URL&#34;: &#34;https://relay.test&#34;");
  });
});

describe("/.well-known/trestle.json", () => {
  it("names the package's version and the features, with chat apps only where their secrets are set", async () => {
    const known = WellKnownSchema.parse(await (await get("/.well-known/trestle.json")).json());
    expect(known.version).toBe(pkg.version);
    // The test relay sets every chat app's secrets (test/support/chat-env.ts).
    expect(known.features).toEqual([
      ...BUILT_IN_FEATURES,
      ...MIRROR_FEATURES,
      "chat:telegram",
      "chat:line",
      "chat:discord",
    ]);
  });
});

describe("/.well-known/agent-card.json", () => {
  it("is the A2A card for this origin, readable from any origin", async () => {
    const res = await get("/.well-known/agent-card.json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(agentCard("https://relay.test"))));
  });
});

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("the viewer's page", () => {
  it("is served for any table id but a deleted table's (deleted-doors.test.ts), carrying only the id and the icon; the viewer script reads the rest", async () => {
    const res = await get("/view/t-459");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('data-table="t-459"');
    expect(html).toContain('<script type="module" src="/assets/viewer.js"></script>');
    expect(html).toContain(
      '<link rel="icon" href="/favicon.ico" sizes="16x16 32x32">\n<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    );
  });

  it("is where the landing page's form leads", async () => {
    const res = await get("/view?table=t-459");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/view/t-459");
  });

  describe("when the id is not a table id", () => {
    it("answers a program E_TABLE_NOT_FOUND as JSON", async () => {
      const res = await get(`/view/${encodeURIComponent('<script>alert("x")</script>')}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("vary")).toBe("Accept");
      expect(await res.json()).toMatchObject({ error: { code: "E_TABLE_NOT_FOUND" } });
    });

    it("answers a browser with a 404 page naming the id only escaped", async () => {
      const res = await get(`/view/${encodeURIComponent('<script>alert("x")</script>')}`, BROWSER);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).toContain('<code id="error-code">E_TABLE_NOT_FOUND</code>');
      expect(html).toContain("&#34;&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#34; is not a table id");
      expect(html).not.toContain("<script>alert");
    });
  });
});

describe("a path no route serves", () => {
  it("is E_NOT_FOUND as JSON for a program and a 404 page for a browser; API routes stay JSON for both", async () => {
    expect(await (await get("/no/such/page")).json()).toMatchObject({ error: { code: "E_NOT_FOUND" } });
    const page = await get("/no/such/page", BROWSER);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("<h1>Nothing here</h1>");
    const api = await get("/tables/Bad%20Id/head", BROWSER);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: "E_TABLE_NOT_FOUND" } });
  });
});
