/** /.well-known/trestle.json: protocol version, the relay's public key (clients pin it), limits. */
import { Hono } from "hono";
import { relaySigner } from "../../durable-objects/relay/relay-key.js";
import type { Env } from "../../durable-objects/env.js";
import { PUBLISHED_LIMITS, type WellKnown } from "../../src/protocol/schemas/responses.js";

/** The well-known routes. */
export const wellKnown = new Hono<{ Bindings: Env }>();

wellKnown.get("/trestle.json", async (c) => {
  const signer = await relaySigner(c.env);
  const body: WellKnown = { protocol: "trestle/0.1", relay_key: signer.publicKeyText, limits: PUBLISHED_LIMITS };
  return c.json(body, 200, { "cache-control": "public, max-age=300" });
});
