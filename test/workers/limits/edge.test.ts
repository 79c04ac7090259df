/**
 * Unsigned reads that reach a table (its head, a public export, the viewer's page), counted per client address by
 * Cloudflare's rate-limiting binding (worker/limits/routes.ts, decision 0260): past
 * edge_reads_per_min the Worker answers 429 without asking the table, and other addresses read on.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { clientAt, fromAddress, openTable } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);

describe("unsigned reads from one address", () => {
  it("are refused past edge_reads_per_min with 429 and a wait of the binding's period, and another address reads on", async () => {
    const c = await clientAt(fetcher, "192.0.2.201", "edge");
    await openTable(c, "lim-edge", { public: true });
    const heads = await Promise.all(
      Array.from({ length: LIMITS_UNDER_TEST.edge_reads_per_min }, () =>
        c.fetch("https://relay.test/tables/lim-edge/head").then((r) => r.status),
      ),
    );
    expect(heads.every((status) => status === 200)).toBe(true);
    const over = await c.fetch("https://relay.test/tables/lim-edge/public/export");
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
    expect(await over.json()).toMatchObject({
      error: { code: "E_RATE_LIMITED", details: { limit: "edge_reads_per_min", retry_after_ms: 60_000 } },
    });
    const page = await c.fetch("https://relay.test/view/lim-edge", { headers: { accept: "text/html" } });
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toBe("60");
    expect(await page.text()).toContain('<code id="error-code">E_RATE_LIMITED</code>');
    expect((await fromAddress(fetcher, "192.0.2.202")("https://relay.test/tables/lim-edge/head")).status).toBe(200);
  });
});
