/**
 * A request whose connection is closed under it before any answer (src/client/http.ts): a GET is
 * sent again once on a new connection, a signed POST never (decision 0526). Against a loopback
 * server that drops the first connection of each request it is told to, as a relay does to a
 * kept-alive connection it closed as idle.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../src/client/index.js";
import { TrestleError } from "../../../src/protocol/index.js";

/** A checkpoint note's text, as the relay serves it (the client reads it unverified). */
const NOTE = "trestle.example/t-closed\n3\nAAAA\n\n— relay sig\n";
let server: Server;
let url: string;
/** Requests seen, by method and path; the first `drop` of them are dropped without an answer. */
const seen: string[] = [];
let drop = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (drop > 0) {
      drop -= 1;
      req.socket.destroy();
      return;
    }
    if (req.method === "GET") return res.end(NOTE);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ error: { code: "E_SCHEMA", message: "no such table request" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("a request whose connection is closed before any answer", () => {
  it("is a GET sent again once, on a new connection, which then reads the answer", async () => {
    seen.length = 0;
    drop = 1;
    expect(await new HttpClient({ url }).checkpoint("t-closed")).toBe(NOTE);
    expect(seen).toEqual(["GET /tables/t-closed/checkpoint", "GET /tables/t-closed/checkpoint"]);
  });

  describe("when it happens again", () => {
    it("is E_NETWORK after the one repeat", async () => {
      seen.length = 0;
      drop = 2;
      const error = await new HttpClient({ url }).checkpoint("t-closed").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TrestleError);
      expect(error).toMatchObject({ code: "E_NETWORK" });
      expect(seen).toHaveLength(2);
    });
  });

  describe("when it is a POST", () => {
    it("is never sent again: E_NETWORK, the relay asked once", async () => {
      seen.length = 0;
      drop = 1;
      const client = new HttpClient({ url });
      const error = await client.createTable({} as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "E_NETWORK" });
      expect(error).toBeInstanceOf(TrestleError);
      expect(seen).toEqual(["POST /tables"]);
    });
  });
});
