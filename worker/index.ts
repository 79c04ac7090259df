/**
 * The trestle Worker: a stateless Hono app routing HTTP and WebSocket traffic to the Durable
 * Objects. Every error leaves as the one envelope `{ error: { code, message } }`; no stack traces.
 */
import { Hono } from "hono";
import { TrestleError } from "../src/protocol/errors.js";
import type { Env } from "../durable-objects/env.js";
import { errorResponse } from "../durable-objects/result.js";
import { tables } from "./routes/tables.js";
import { wellKnown } from "./routes/well-known.js";
import { hooks } from "./routes/hooks.js";
import { owners } from "./routes/owners.js";
import { invites } from "./routes/invites.js";

export { RelayDO } from "../durable-objects/relay/relay.js";
export { TableDO } from "../durable-objects/table/table.js";
export { OwnerDO } from "../durable-objects/owner/owner.js";
export { ChatDirectoryDO } from "../durable-objects/chat/directory.js";
export { InviteDirectoryDO } from "../durable-objects/invites/directory.js";

const app = new Hono<{ Bindings: Env }>();

app.get("/", (c) => c.json({ name: "trestle", protocol: "trestle/0.1", well_known: "/.well-known/trestle.json" }));
app.route("/.well-known", wellKnown);
app.route("/tables", tables);
app.route("/owners", owners);
app.route("/hooks", hooks);
app.route("/invites", invites);
app.notFound(() => errorResponse(new TrestleError("E_NOT_FOUND")));
app.onError((error) => errorResponse(error));

export default app;
