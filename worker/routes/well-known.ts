/**
 * /.well-known documents: trestle.json (protocol, the relay's public key that clients pin, limits,
 * version and features) and the A2A agent card (worker/site/agent-card.ts).
 */
import { Hono } from "hono";
import { agentCard } from "../site/agent-card.js";
import { wellKnownBody } from "../site/relay-info.js";

/** The well-known routes. */
export const wellKnown = new Hono<{ Bindings: Env }>();

wellKnown.get("/trestle.json", async (c) =>
  c.json(await wellKnownBody(c.env), 200, { "cache-control": "public, max-age=300" }),
);

wellKnown.get("/agent-card.json", (c) =>
  c.json(agentCard(new URL(c.req.url).origin), 200, {
    "cache-control": "public, max-age=300",
    "access-control-allow-origin": "*",
  }),
);
