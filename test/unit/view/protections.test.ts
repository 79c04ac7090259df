/**
 * Who may use the principal window (docs/SECURITY.md "The principal window"), tried as an attacker
 * would: requests without the token or with a wrong one, with another Host (DNS rebinding), from a
 * foreign Origin or another site, and a real page on another local origin in Chromium that knows
 * the token and still cannot make the window sign. Every refusal leaves the table's ledger, and the
 * gate answers in the seat's journal (`POST /api/gate`), as they were; a refused revocation
 * (`POST /api/revoke`) leaves the seat seated.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableClient } from "../../../src/client/index.js";
import { seatFiles, seatJournal } from "../../../src/owner/index.js";
import type { ErrorCode } from "../../../src/protocol/index.js";
import { dirname } from "node:path";
import { sharedChromium } from "../../support/browser.js";
import { cast } from "../../support/table-fixture.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { openWindow, ownerHome, seatedRoom, type OpenWindow } from "./window-fixture.js";
import { refused } from "../../support/refused.js";

let relay: LocalRelay;
let window: OpenWindow;
let table: string;
let bots: TableClient;
let home: string;
/** A message held in bot-tao's journal: a gate answer to it would be recorded, were the request let through. */
const HELD = "c4".repeat(32);

beforeAll(async () => {
  relay = await sharedRelay();
  home = await ownerHome("guard");
  table = uniqueTable("guard");
  ({ bots } = await seatedRoom(relay.url, home, table));
  const { journal } = seatFiles(home, table, "bot-tao");
  mkdirSync(dirname(journal), { recursive: true });
  writeFileSync(
    journal,
    `${JSON.stringify({ v: 1, at: Date.now(), table, seat: "bot-tao", type: "held", message_sha256: HELD, why: "require_confirm", submission: { kind: "say", body: "Deal." } })}\n`,
  );
  window = await openWindow(relay.url, home);
}, 60_000);
afterAll(async () => {
  await window?.close();
});

/** A raw request to the window with exactly these headers; the answer's status, headers and body. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
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
const gateBody = () => JSON.stringify({ table, seat: "bot-tao", message_sha256: HELD, verdict: "approve" });
const answers = () => seatJournal(home, table, "bot-tao", Date.now).ofType("gate_answer").length;
const revokeBody = () => JSON.stringify({ table, seat: "bot-tao" });

/** Resolves once tao's window has read the table's seats (its session reached the ledger). */
function seated(): Promise<void> {
  return new Promise((resolve) => {
    let off: () => void = () => undefined;
    off = window.principal.subscribe((event) => {
      if (event.type === "table" && event.summary.table === table && event.summary.seats.length > 0)
        queueMicrotask(() => resolve(void off()));
    });
  });
}

/** Sends `attempt` and checks it was refused with `code`, without a CORS header, and that neither the table's head nor bot-tao's journal of gate answers moved. */
async function refusedByWindow(attempt: () => ReturnType<typeof send>, status: number, code: ErrorCode) {
  const answer = await refused(code, attempt, { status, unmoved: async () => [(await bots.head()).seq, answers()] });
  expect(Object.keys(answer.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
}

describe("the window's API", () => {
  it("streams to a request with the token, its own Host and no Origin (a same-origin GET)", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: window.server.port,
          path: "/api/stream",
          headers: { host: own().host, "x-trestle-token": window.server.token },
        },
        (res) => {
          res.setEncoding("utf8");
          res.once("data", (chunk: string) => {
            resolve(chunk);
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(JSON.parse(answer.split("\n")[0]!)).toMatchObject({ type: "hello", owner: "tao" });
  });

  it("answers the held message once every protection passes: the journal takes tao's signed answer", async () => {
    await seated();
    const headers = { ...own(), "x-trestle-token": window.server.token, "content-type": "application/json" };
    const answer = await send("POST", "/api/gate", headers, gateBody());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, message_sha256: HELD, verdict: "approve" });
    const journal = seatJournal(home, table, "bot-tao", Date.now);
    expect(journal.ofType("gate_answer")).toEqual([
      expect.objectContaining({
        message_sha256: HELD,
        verdict: "approve",
        owner_key: (await cast()).tao.publicKeyText,
      }),
    ]);
  });

  describe("when the token is missing or wrong", () => {
    it("refuses the stream with E_AUTH", async () => {
      await refusedByWindow(() => send("GET", "/api/stream", { host: own().host }), 401, "E_AUTH");
      await refusedByWindow(
        () => send("GET", "/api/stream", { host: own().host, "x-trestle-token": `${window.server.token.slice(1)}A` }),
        401,
        "E_AUTH",
      );
    });

    it("refuses a pause with E_AUTH, even from the window's own origin", async () => {
      await refusedByWindow(
        () => send("POST", "/api/control", { ...own(), "content-type": "application/json" }, pauseBody()),
        401,
        "E_AUTH",
      );
    });

    it("refuses a revocation with E_AUTH, token missing or wrong", async () => {
      await refusedByWindow(
        () => send("POST", "/api/revoke", { ...own(), "content-type": "application/json" }, revokeBody()),
        401,
        "E_AUTH",
      );
      await refusedByWindow(
        () =>
          send(
            "POST",
            "/api/revoke",
            { ...own(), "content-type": "application/json", "x-trestle-token": `${window.server.token.slice(1)}A` },
            revokeBody(),
          ),
        401,
        "E_AUTH",
      );
    });

    it("refuses a gate answer with E_AUTH, token missing or wrong, and records none", async () => {
      await refusedByWindow(
        () => send("POST", "/api/gate", { ...own(), "content-type": "application/json" }, gateBody()),
        401,
        "E_AUTH",
      );
      await refusedByWindow(
        () =>
          send(
            "POST",
            "/api/gate",
            { ...own(), "content-type": "application/json", "x-trestle-token": `${window.server.token.slice(1)}A` },
            gateBody(),
          ),
        401,
        "E_AUTH",
      );
    });
  });

  describe("when the Host is not the window's (DNS rebinding)", () => {
    it("refuses the page and the API with E_FORBIDDEN, token or not", async () => {
      const host = `trestle.attacker.example:${window.server.port}`;
      await refusedByWindow(() => send("GET", "/", { host }), 403, "E_FORBIDDEN");
      const headers = {
        host,
        origin: `http://${host}`,
        "content-type": "application/json",
        "x-trestle-token": window.server.token,
      };
      await refusedByWindow(() => send("POST", "/api/control", headers, pauseBody()), 403, "E_FORBIDDEN");
    });
  });

  describe("when the request comes from another origin or site", () => {
    const token = () => ({ "x-trestle-token": window.server.token, "content-type": "application/json" });

    it("refuses a foreign Origin, another local port included", async () => {
      for (const origin of ["https://attacker.example", `http://127.0.0.1:${window.server.port + 1}`, "null"]) {
        await refusedByWindow(
          () => send("POST", "/api/control", { ...own(), ...token(), origin }, pauseBody()),
          403,
          "E_FORBIDDEN",
        );
        await refusedByWindow(
          () => send("POST", "/api/gate", { ...own(), ...token(), origin }, gateBody()),
          403,
          "E_FORBIDDEN",
        );
        await refusedByWindow(
          () => send("POST", "/api/revoke", { ...own(), ...token(), origin }, revokeBody()),
          403,
          "E_FORBIDDEN",
        );
      }
    });

    it("refuses a revocation from another Host, without an Origin or marked cross-site", async () => {
      const host = `trestle.attacker.example:${window.server.port}`;
      await refusedByWindow(
        () => send("POST", "/api/revoke", { ...token(), host, origin: `http://${host}` }, revokeBody()),
        403,
        "E_FORBIDDEN",
      );
      await refusedByWindow(
        () => send("POST", "/api/revoke", { host: own().host, ...token() }, revokeBody()),
        403,
        "E_FORBIDDEN",
      );
      await refusedByWindow(
        () => send("POST", "/api/revoke", { ...own(), ...token(), "sec-fetch-site": "cross-site" }, revokeBody()),
        403,
        "E_FORBIDDEN",
      );
    });

    it("refuses a gate answer from another Host, without an Origin or marked cross-site", async () => {
      const host = `trestle.attacker.example:${window.server.port}`;
      await refusedByWindow(
        () => send("POST", "/api/gate", { ...token(), host, origin: `http://${host}` }, gateBody()),
        403,
        "E_FORBIDDEN",
      );
      await refusedByWindow(
        () => send("POST", "/api/gate", { host: own().host, ...token() }, gateBody()),
        403,
        "E_FORBIDDEN",
      );
      await refusedByWindow(
        () => send("POST", "/api/gate", { ...own(), ...token(), "sec-fetch-site": "cross-site" }, gateBody()),
        403,
        "E_FORBIDDEN",
      );
    });

    it("refuses a POST without an Origin and one a browser marks as cross-site", async () => {
      await refusedByWindow(
        () => send("POST", "/api/control", { host: own().host, ...token() }, pauseBody()),
        403,
        "E_FORBIDDEN",
      );
      await refusedByWindow(
        () => send("POST", "/api/control", { ...own(), ...token(), "sec-fetch-site": "same-site" }, pauseBody()),
        403,
        "E_FORBIDDEN",
      );
    });

    it("answers a CORS preflight with a refusal and no CORS header, so a browser never sends the POST", async () => {
      const headers = {
        ...own(),
        origin: "https://attacker.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-trestle-token",
      };
      await refusedByWindow(() => send("OPTIONS", "/api/control", headers), 403, "E_FORBIDDEN");
    });
  });

  describe("when the body is not an action", () => {
    const headers = () => ({ ...own(), "x-trestle-token": window.server.token, "content-type": "application/json" });

    it("refuses a body that is not JSON, too large or not the schema's, with the protocol's codes", async () => {
      await refusedByWindow(
        () => send("POST", "/api/control", { ...headers(), "content-type": "text/plain" }, pauseBody()),
        400,
        "E_SCHEMA",
      );
      await refusedByWindow(() => send("POST", "/api/control", headers(), "{"), 400, "E_SCHEMA");
      await refusedByWindow(
        () => send("POST", "/api/control", headers(), JSON.stringify({ table, action: "pause", extra: 1 })),
        400,
        "E_SCHEMA",
      );
      await refusedByWindow(
        () => send("POST", "/api/control", headers(), JSON.stringify({ table, action: "x".repeat(5000) })),
        413,
        "E_TOO_LARGE",
      );
    });

    it("refuses a gate answer that is not the strict schema: an extra field, a short hash, another verdict", async () => {
      const body = JSON.parse(gateBody()) as Record<string, unknown>;
      for (const bad of [
        { ...body, extra: 1 },
        { ...body, message_sha256: HELD.slice(0, 16) },
        { ...body, verdict: "maybe" },
        { ...body, seat: "Bot Tao" },
      ]) {
        await refusedByWindow(() => send("POST", "/api/gate", headers(), JSON.stringify(bad)), 400, "E_SCHEMA");
      }
    });

    it("refuses a revocation that is not the strict schema: an extra field, a seat name that is none, no seat", async () => {
      for (const bad of [{ table, seat: "bot-tao", extra: 1 }, { table, seat: "Bot Tao" }, { table }]) {
        await refusedByWindow(() => send("POST", "/api/revoke", headers(), JSON.stringify(bad)), 400, "E_SCHEMA");
      }
    });

    it("refuses a revocation at a table the window does not follow, and of another owner's seat", async () => {
      await refusedByWindow(
        () => send("POST", "/api/revoke", headers(), JSON.stringify({ table: "not-followed", seat: "bot-tao" })),
        404,
        "E_TABLE_NOT_FOUND",
      );
      await seated();
      await refusedByWindow(
        () => send("POST", "/api/revoke", headers(), JSON.stringify({ table, seat: "bot-jenny" })),
        403,
        "E_FORBIDDEN",
      );
    });

    it("refuses a table the window does not follow and another owner's task", async () => {
      await refusedByWindow(
        () => send("POST", "/api/control", headers(), JSON.stringify({ table: "not-followed", action: "pause" })),
        404,
        "E_TABLE_NOT_FOUND",
      );
      await refusedByWindow(
        () => send("POST", "/api/approve", headers(), JSON.stringify({ table, task: "3.jenny", verdict: "approve" })),
        403,
        "E_FORBIDDEN",
      );
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

describe("a page on another local origin, in Chromium", { timeout: 30_000 }, () => {
  let browser: Browser;
  let attacker: Server;
  let attackerUrl: string;

  beforeAll(async () => {
    browser = await sharedChromium();
    attacker = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(ATTACKER_PAGE));
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  }, 30_000);
  afterAll(async () => {
    await new Promise((resolve) => attacker?.close(resolve));
  });

  it("cannot make the window sign a pause nor read its stream, even knowing the token", async () => {
    const page = await browser.newPage();
    const before = await bots.head();
    await page.goto(`${attackerUrl}#${window.server.port}|${window.server.token}|${table}`);
    const outcomes = (await (await page.waitForFunction("window.outcomes")).jsonValue()) as string[];
    // With the token the preflight is refused, so the POST is never sent; without it the window refuses
    // the foreign Origin, and its Cross-Origin-Resource-Policy keeps even the opaque answer from the page.
    expect(outcomes).toEqual([
      "failed: TypeError: Failed to fetch",
      "failed: TypeError: Failed to fetch",
      "failed: TypeError: Failed to fetch",
    ]);
    expect((await bots.head()).seq).toBe(before.seq);
    await page.close();
  });
});
