/**
 * Every door of a deleted table answers E_TABLE_DELETED in a form its caller can read (docs/SPEC.md
 * §6.3, §6.5, §6.6): the viewer's page is a 410 page for a browser and the 410 envelope for a
 * program; a socket upgrade, seat or public, is accepted only to carry the error frame and close
 * with 4410 (a browser's WebSocket never shows the status of a refused upgrade). Also after the
 * table's object was evicted.
 */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signDelete } from "../../src/client/owner-requests.js";
import { refusalOf } from "../../src/client/refusal.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);
const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** A public debate table `id`, deleted by its creator ops; resolves with the tombstone. */
async function deletedTable(id: string): Promise<Record<string, unknown>> {
  const k = await seatedDebate(relay, id, { public: true });
  const deleted = await relay.request(
    "POST",
    `/tables/${id}/delete`,
    await signDelete(k.ops, { table: id, owner: "ops", now: Date.now() }),
  );
  expect(deleted.status).toBe(200);
  return deleted.body;
}

describe("the viewer's page of a deleted table", () => {
  it("is a 410 page for a browser, saying when and by whom, with no viewer script", async () => {
    await deletedTable("doors-page");
    const res = await SELF.fetch("https://relay.test/view/doors-page", { headers: BROWSER });
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("vary")).toBe("Accept");
    const html = await res.text();
    expect(html).toContain('<code id="error-code">E_TABLE_DELETED</code>');
    expect(html).toContain("table doors-page was deleted by its creator ops");
    expect(html).not.toContain("viewer.js");
  });

  it("is the E_TABLE_DELETED envelope, the tombstone as details, for a program", async () => {
    const tombstone = await deletedTable("doors-json");
    const programs: Record<string, string>[] = [{}, { accept: "application/json" }, { accept: "*/*" }];
    for (const headers of programs) {
      const res = await SELF.fetch("https://relay.test/view/doors-json", { headers });
      expect(res.status).toBe(410);
      expect(res.headers.get("vary")).toBe("Accept");
      expect(await res.json()).toEqual({
        error: { code: "E_TABLE_DELETED", message: expect.any(String), details: tombstone },
      });
    }
  });
});

describe("a socket upgrade to a deleted table", () => {
  it.each([
    ["the seat socket", "ws"],
    ["the public socket", "public/ws?after=0"],
  ])(
    "is accepted for %s, carries the E_TABLE_DELETED error frame and closes with 4410, also after an eviction",
    async (_, route) => {
      const id = `doors-${route.startsWith("public") ? "public" : "seat"}-ws`;
      const tombstone = await deletedTable(id);
      for (const evict of [false, true]) {
        if (evict) await evictDurableObject(env.TABLES.getByName(id));
        const socket = await TestSocket.open(fetcher, id, route);
        const closed = await socket.whenClosed();
        expect(closed.code).toBe(4410);
        expect(refusalOf(closed.code, closed.reason, "x")?.code).toBe("E_TABLE_DELETED");
        expect(socket.frames).toEqual([
          {
            type: "error",
            error: {
              code: "E_TABLE_DELETED",
              message: expect.stringContaining(`table ${id} was deleted`),
              details: tombstone,
            },
          },
        ]);
      }
    },
  );
});
