/**
 * Custody and mirror routes (docs/SPEC.md §6.1, §8.4): feed a replica a verified page, read a
 * replica's status, and hand a table to this relay with its owners' custody statement.
 */
import { Hono } from "hono";
import { LIMITS } from "../../src/protocol/limits/limits.js";
import { json, readJson, tableStub } from "../http.js";

/** The /tables/:id/replica and /tables/:id/custody routes. */
export const custody = new Hono<{ Bindings: Env }>();

custody.post("/:id/replica", async (c) => {
  const stub = tableStub(c, c.req.param("id"));
  return json(c, await stub.replicate(await readJson(c, LIMITS.replica_page_bytes)));
});

custody.get("/:id/replica", async (c) => json(c, await tableStub(c, c.req.param("id")).replicaStatus()));

custody.post("/:id/custody", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).takeCustody(await readJson(c)), 201),
);
