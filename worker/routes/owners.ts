/**
 * Owner routes (docs/SPEC.md §11.1): create a one-time bind code, unbind a chat account, read
 * channel health. Each is signed by the owner key named in the path; `trestle bind|unbind|channels`
 * and the MCP `notify_status` tool call these through src/client/owner.ts.
 */
import { Hono } from "hono";
import { unwrap } from "../../durable-objects/result.js";
import { chatPlatforms } from "../../durable-objects/settings.js";
import type { BindCodeResponse, UnbindResponse } from "../../src/protocol/schemas/owner.js";
import { json, readJson, signedPath, type AppContext } from "../http.js";
import { authorizeOwnerRead, ownerKeyParam, verifiedBindStatement } from "../owner-auth.js";
import { chatDirectory, ownerObject } from "../../durable-objects/stubs.js";

/** The /owners routes. */
export const owners = new Hono<{ Bindings: Env }>();

owners.post("/:key/bind-codes", async (c) => {
  const key = ownerKeyParam(c.req.param("key"));
  const statement = await verifiedBindStatement(await readJson(c), key, "code", Date.now());
  const { code, expires } = unwrap(await chatDirectory(c.env).createCode(statement));
  const body: BindCodeResponse = {
    code,
    platform: statement.platform,
    expires,
    send: chatPlatforms(c.env)[statement.platform].instructions(code),
  };
  return c.json(body, 201);
});

owners.post("/:key/unbind", async (c) => {
  const key = ownerKeyParam(c.req.param("key"));
  const statement = await verifiedBindStatement(await readJson(c), key, "unbind", Date.now());
  // Revoke command rights first, then stop deliveries.
  unwrap(await chatDirectory(c.env).unindex(statement.platform, statement.account, key));
  const { removed } = unwrap(await ownerObject(c.env, key).unbind(key, statement.platform, statement.account));
  const body: UnbindResponse = { platform: statement.platform, account: statement.account, removed };
  return c.json(body);
});

owners.get("/:key/channels", async (c: AppContext) => {
  const key = ownerKeyParam(c.req.param("key") ?? "");
  await authorizeOwnerRead(c.req.header("authorization") ?? null, key, "GET", signedPath(c), Date.now());
  return json(c, await ownerObject(c.env, key).channels(key));
});
