/**
 * Who may use the principal window (docs/SECURITY.md "The principal window"), tried as an attacker
 * would: requests without the token or with a wrong one, with another Host (DNS rebinding), from a
 * foreign Origin or another site, and a real page on another local origin in Chromium that knows
 * the token and still cannot make the window sign. Every refusal leaves the table's ledger as it was.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableClient } from "../../../src/client/index.js";
import { launchChromium } from "../../support/browser.js";
import { uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { openWindow, ownerHome, seatedRoom, type OpenWindow } from "./window-fixture.js";

let relay: LocalRelay;
let window: OpenWindow;
let table: string;
let bots: TableClient;

beforeAll(async () => {
  relay = await startRelay();
  const home = await ownerHome("guard");
  table = uniqueTable("guard");
  ({ bots } = await seatedRoom(relay.url, home, table));
  window = await openWindow(relay.url, home);
}, 60_000);
afterAll(async () => {
  await window?.close();
  await relay?.dispose();
});

/** A raw request to the window with exactly these headers; the answer's status, headers and body. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: window.server.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const own = () => ({ host: `127.0.0.1:${window.server.port}`, origin: `http://127.0.0.1:${window.server.port}` });
const pause = JSON.stringify({ table: "", action: "pause" });
const pauseBody = () => pause.replace('""', JSON.stringify(table));

/** Sends `attempt` and checks it was refused with `code` and that the table's head did not move. */
async function refused(attempt: () => ReturnType<typeof send>, status: number, code: string) {
  const before = await bots.head();
  const answer = await attempt();
  expect(answer.status).toBe(status);
  expect(JSON.parse(answer.body).error.code).toBe(code);
  expect(Object.keys(answer.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  expect((await bots.head()).seq).toBe(before.seq);
}

describe("the window's API", () => {
  it("streams to a request with the token, its own Host and no Origin (a same-origin GET)", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: window.server.port, path: "/api/stream", headers: { host: own().host, "x-trestle-token": window.server.token } }, (res) => {
        res.setEncoding("utf8");
        res.once("data", (chunk: string) => {
          resolve(chunk);
          req.destroy();
        });
      });
      req.on("error", reject);
      req.end();
    });
    expect(JSON.parse(answer.split("\n")[0]!)).toMatchObject({ type: "hello", owner: "tao" });
  });

  describe("when the token is missing or wrong", () => {
    it("refuses the stream with E_AUTH", async () => {
      await refused(() => send("GET", "/api/stream", { host: own().host }), 401, "E_AUTH");
      await refused(() => send("GET", "/api/stream", { host: own().host, "x-trestle-token": `${window.server.token.slice(1)}A` }), 401, "E_AUTH");
    });

    it("refuses a pause with E_AUTH, even from the window's own origin", async () => {
      await refused(() => send("POST", "/api/control", { ...own(), "content-type": "application/json" }, pauseBody()), 401, "E_AUTH");
    });
  });

  describe("when the Host is not the window's (DNS rebinding)", () => {
    it("refuses the page and the API with E_FORBIDDEN, token or not", async () => {
      const host = `trestle.attacker.example:${window.server.port}`;
      await refused(() => send("GET", "/", { host }), 403, "E_FORBIDDEN");
      const headers = { host, origin: `http://${host}`, "content-type": "application/json", "x-trestle-token": window.server.token };
      await refused(() => send("POST", "/api/control", headers, pauseBody()), 403, "E_FORBIDDEN");
    });
  });

  describe("when the request comes from another origin or site", () => {
    const token = () => ({ "x-trestle-token": window.server.token, "content-type": "application/json" });

    it("refuses a foreign Origin, another local port included", async () => {
      for (const origin of ["https://attacker.example", `http://127.0.0.1:${window.server.port + 1}`, "null"]) {
        await refused(() => send("POST", "/api/control", { ...own(), ...token(), origin }, pauseBody()), 403, "E_FORBIDDEN");
      }
    });

    it("refuses a POST without an Origin and one a browser marks as cross-site", async () => {
      await refused(() => send("POST", "/api/control", { host: own().host, ...token() }, pauseBody()), 403, "E_FORBIDDEN");
      await refused(() => send("POST", "/api/control", { ...own(), ...token(), "sec-fetch-site": "same-site" }, pauseBody()), 403, "E_FORBIDDEN");
    });

    it("answers a CORS preflight with a refusal and no CORS header, so a browser never sends the POST", async () => {
      const headers = { ...own(), origin: "https://attacker.example", "access-control-request-method": "POST", "access-control-request-headers": "x-trestle-token" };
      await refused(() => send("OPTIONS", "/api/control", headers), 403, "E_FORBIDDEN");
    });
  });

  describe("when the body is not an action", () => {
    const headers = () => ({ ...own(), "x-trestle-token": window.server.token, "content-type": "application/json" });

    it("refuses a body that is not JSON, too large or not the schema's, with the protocol's codes", async () => {
      await refused(() => send("POST", "/api/control", { ...headers(), "content-type": "text/plain" }, pauseBody()), 400, "E_SCHEMA");
      await refused(() => send("POST", "/api/control", headers(), "{"), 400, "E_SCHEMA");
      await refused(() => send("POST", "/api/control", headers(), JSON.stringify({ table, action: "pause", extra: 1 })), 400, "E_SCHEMA");
      await refused(() => send("POST", "/api/control", headers(), JSON.stringify({ table, action: "x".repeat(5000) })), 413, "E_TOO_LARGE");
    });

    it("refuses a table the window does not follow and another owner's task", async () => {
      await refused(() => send("POST", "/api/control", headers(), JSON.stringify({ table: "not-followed", action: "pause" })), 404, "E_TABLE_NOT_FOUND");
      await refused(() => send("POST", "/api/approve", headers(), JSON.stringify({ table, task: "3.jenny", verdict: "approve" })), 403, "E_FORBIDDEN");
    });
  });
});

/**
 * Another local web app's page, as an attacker would write it: it is handed the window's port,
 * token and table in its fragment (the worst case: it learned the token) and tries to make the
 * window pause the table, then to read its stream; it records what happened in `window.outcomes`.
 */
const ATTACKER_PAGE = `<!doctype html><title>another local app</title><script>
const [port, token, table] = location.hash.slice(1).split("|");
const base = "http://127.0.0.1:" + port;
const body = JSON.stringify({ table, action: "pause" });
const tries = [
  () => fetch(base + "/api/control", { method: "POST", headers: { "content-type": "application/json", "x-trestle-token": token }, body }),
  () => fetch(base + "/api/control", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body }),
  () => fetch(base + "/api/stream"),
];
(async () => {
  const out = [];
  for (const attempt of tries) out.push(await attempt().then((r) => "answered " + r.type + " " + r.status, (e) => "failed: " + e));
  window.outcomes = out;
})();
</script>`;

describe("a page on another local origin, in Chromium", () => {
  let browser: Browser;
  let attacker: Server;
  let attackerUrl: string;

  beforeAll(async () => {
    browser = await launchChromium();
    attacker = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(ATTACKER_PAGE));
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  it("cannot make the window sign a pause nor read its stream, even knowing the token", async () => {
    const page = await browser.newPage();
    const before = await bots.head();
    await page.goto(`${attackerUrl}#${window.server.port}|${window.server.token}|${table}`);
    const outcomes = (await (await page.waitForFunction("window.outcomes")).jsonValue()) as string[];
    // With the token the preflight is refused, so the POST is never sent; without it the window refuses
    // the foreign Origin, and its Cross-Origin-Resource-Policy keeps even the opaque answer from the page.
    expect(outcomes).toEqual(["failed: TypeError: Failed to fetch", "failed: TypeError: Failed to fetch", "failed: TypeError: Failed to fetch"]);
    expect((await bots.head()).seq).toBe(before.seq);
    await page.close();
  });
});
