/**
 * Chat-app webhooks (docs/SPEC.md §11.5): one route, POST /hooks/:platform, for every platform in
 * the registry (src/chat/platforms). Each platform checks its own signature over the raw bytes
 * before parsing anything; unsigned or mis-signed requests get 401 (E_AUTH) and change nothing. A
 * name that is no platform is not found, as any other unknown path.
 */
import { Hono } from "hono";
import { hookContext } from "../../durable-objects/chat-directory/handle.js";
import { chatPlatforms } from "../../durable-objects/settings.js";
import { ChatPlatformSchema } from "../../src/protocol/schemas/control.js";
import { readBytes } from "../http.js";

/** The /hooks routes. */
export const hooks = new Hono<{ Bindings: Env }>();

hooks.post("/:platform", async (c) => {
  const platform = ChatPlatformSchema.safeParse(c.req.param("platform"));
  if (!platform.success) return c.notFound();
  const request = { header: (name: string) => c.req.header(name) ?? null, body: await readBytes(c), now: Date.now() };
  return c.json(await chatPlatforms(c.env)[platform.data].hook(request, hookContext(c.env, platform.data)));
});
