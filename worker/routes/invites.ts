/**
 * Room invite routes (docs/SPEC.md §5.10): which room a code opens, and joining with it. Both go
 * through the invite directory first, which counts wrong codes per client (its IP address) and
 * relay-wide; only then does the room's object see the join, whose owner-signed statement it
 * checks like any other. A code is spent by the join it admits.
 */
import { Hono } from "hono";
import { unwrap } from "../../durable-objects/result.js";
import { inviteDirectory } from "../../durable-objects/stubs.js";
import { parseOrThrow } from "../../src/protocol/errors.js";
import {
  InviteJoinRequestSchema,
  InviteLookupRequestSchema,
  type InviteLookupResponse,
} from "../../src/protocol/schemas/room.js";
import { readJson, tableStub, type AppContext } from "../http.js";

/** The /invites routes. */
export const invites = new Hono<{ Bindings: Env }>();

/** Who is guessing: the client's IP address as Cloudflare reports it (one key for every client without one). */
function clientOf(c: AppContext): string {
  return c.req.header("cf-connecting-ip") ?? "unknown";
}

invites.post("/lookup", async (c) => {
  const { code } = parseOrThrow(InviteLookupRequestSchema, await readJson(c), "invite lookup");
  const target: InviteLookupResponse = unwrap(await inviteDirectory(c.env).resolve(code, clientOf(c)));
  return c.json(target);
});

invites.post("/join", async (c) => {
  const { code, ...join } = parseOrThrow(InviteJoinRequestSchema, await readJson(c), "invite join request");
  const directory = inviteDirectory(c.env);
  const target = unwrap(await directory.resolve(code, clientOf(c)));
  const joined = unwrap(await tableStub(c, target.table).joinInvited(join, target.invite));
  unwrap(await directory.spend(target.table, target.invite));
  return c.json(joined, 201);
});
