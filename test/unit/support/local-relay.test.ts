/**
 * The relays the Node tests start (test/support/local-relay.ts) serve their static files from a
 * copy of dist/site of their own: wrangler restarts a relay whenever that folder changes, even with
 * `watch: false`, and a restart answers a write in flight with wrangler's 503 "Your worker
 * restarted mid-request" (docs/SELF-HOST.md), so a rebuild of the site by another test process
 * must not reach them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { relayPerFile } from "../../support/local-relay.js";

const relay = relayPerFile();
const SITE = fileURLToPath(new URL("../../../dist/site", import.meta.url));

describe("a relay started for a test", () => {
  it("serves the site from a copy of its own, outside dist/site", async () => {
    const { url, site } = relay();
    expect(site).not.toBe(SITE);
    expect(site.startsWith(SITE)).toBe(false);
    expect(readFileSync(join(site, "assets", "site.css"), "utf8")).toBe(
      readFileSync(join(SITE, "assets", "site.css"), "utf8"),
    );
    writeFileSync(join(site, "assets", "site.css"), "/* this relay's copy */");
    expect(await (await fetch(`${url}/assets/site.css`)).text()).toBe("/* this relay's copy */");
  });
});
