/**
 * The trestle Worker: a stateless Hono app routing HTTP and WebSocket traffic to the Durable
 * Objects. Every error leaves as the one envelope `{ error: { code, message } }`; no stack traces.
 */
import { Hono } from "hono";
import { TrestleError } from "../src/protocol/errors.js";
import { errorResponse, unwrap } from "../durable-objects/result.js";
import { tables } from "./routes/tables.js";
import { wellKnown } from "./routes/well-known.js";
import { hooks } from "./routes/hooks.js";
import { owners } from "./routes/owners.js";
import { publicTables } from "./routes/public.js";
import { tlog } from "./routes/tlog.js";
import { htmlResponse, prefersHtml } from "./site/html.js";
import { pageError } from "./site/error-page.js";
import { tableStub } from "./http.js";
import { landingHtml } from "./site/landing.js";
import { wellKnownBody } from "./site/relay-info.js";
import { viewerHtml } from "./site/viewer-page.js";
import { invites } from "./routes/invites.js";
import { applyLimits } from "./limits/routes.js";
import { custody } from "./routes/custody.js";

export { RelayDO } from "../durable-objects/relay/relay.js";
export { TableDO } from "../durable-objects/table/table.js";
export { OwnerDO } from "../durable-objects/owner/owner.js";
export { ChatDirectoryDO } from "../durable-objects/chat-directory/directory.js";
export { InviteDirectoryDO } from "../durable-objects/invites/directory.js";
export { CounterDO } from "../durable-objects/counters/counters.js";

const app = new Hono<{ Bindings: Env }>();

// The index: JSON unless the client prefers HTML (a browser), then the landing page (worker/site/).
app.get("/", async (c) => {
  if (prefersHtml(c)) {
    return htmlResponse(landingHtml(new URL(c.req.url).origin, await wellKnownBody(c.env)), 200, "Accept");
  }
  c.header("vary", "Accept");
  return c.json({ name: "trestle", protocol: "trestle/0.1", well_known: "/.well-known/trestle.json" });
});
app.get("/view", (c) => c.redirect(`/view/${encodeURIComponent(c.req.query("table") ?? "")}`, 303));
applyLimits(app);
// The viewer's page, unless the id is not a table id or the table was deleted: then a page saying so for a browser, the envelope for a program.
app.get("/view/:id", async (c) => {
  const id = c.req.param("id");
  unwrap(await tableStub(c, id).notDeleted());
  return htmlResponse(viewerHtml(id, new URL(c.req.url).origin));
});
app.route("/.well-known", wellKnown);
app.route("/tables", tables);
app.route("/tables", publicTables);
app.route("/tables", tlog);
app.route("/tables", custody);
app.route("/owners", owners);
app.route("/hooks", hooks);
app.route("/invites", invites);
app.notFound((c) => pageError(c, new TrestleError("E_NOT_FOUND")));
app.onError((error, c) => (isPage(c.req.path) ? pageError(c, error) : errorResponse(error)));

/** Whether `path` is one of the relay's pages, whose refusals a browser gets as pages too (error-page.ts). */
function isPage(path: string): boolean {
  return path === "/" || path === "/view" || path.startsWith("/view/");
}

export default app;
