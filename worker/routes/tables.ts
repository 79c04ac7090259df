/** Table routes (docs/SPEC.md §6): create, join, submit, approvals, sub-tables, head, projection, entries, tasks, export, ws; a room's invites, ejections and notes to owners; a market's listings, matches and deals, and its chat groups; a seat's questions to its owner, the answers and the owner's instructions; an owner's revocation of its seat; delete. */
import { Hono } from "hono";
import { TrestleError } from "../../src/protocol/errors.js";
import { TableIdSchema } from "../../src/protocol/schemas/primitives.js";
import { unwrap } from "../../durable-objects/result.js";
import { intParam, json, readJson, signedPath, tableStub, type AppContext } from "../http.js";
import type { InviteResponse } from "../../src/protocol/schemas/room.js";
import { chatDirectory, inviteDirectory, ownerObject } from "../../durable-objects/stubs.js";
import { requestHost } from "./tlog.js";
import { chatPlatforms } from "../../durable-objects/settings.js";
import { groupAudience } from "../../src/protocol/schemas/notify.js";
import type {
  GroupCodeResponse,
  GroupsResponse,
  GroupUnbindResponse,
} from "../../src/protocol/schemas/market-group.js";

/** The /tables routes. */
export const tables = new Hono<{ Bindings: Env }>();

const readAuth = (c: AppContext) => ({ header: c.req.header("authorization") ?? null, path: signedPath(c) });

/** A seq in a path: E_SCHEMA unless it is a positive integer. */
function seqParam(raw: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(raw))
    throw new TrestleError("E_SCHEMA", "the seq in the path must be a positive integer");
  return Number(raw);
}

/** The table id a create or sub-table request's config names (the object that handles it); E_SCHEMA unless it is one. */
function configId(body: unknown): string {
  const id =
    typeof body === "object" && body !== null && "config" in body ? (body.config as { id?: unknown })?.id : undefined;
  const parsed = TableIdSchema.safeParse(id);
  if (!parsed.success)
    throw new TrestleError("E_SCHEMA", "config at id: a table id is required", {
      issues: [{ path: "id", message: "a table id" }],
    });
  return parsed.data;
}

tables.post("/", async (c) => {
  const body = await readJson(c);
  return json(c, await tableStub(c, configId(body)).create(body, requestHost(c)), 201);
});

tables.post("/:id/join", async (c) => json(c, await tableStub(c, c.req.param("id")).join(await readJson(c)), 201));

tables.post("/:id/entries", async (c) => json(c, await tableStub(c, c.req.param("id")).submit(await readJson(c)), 201));

tables.post("/:id/control", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).control(await readJson(c)), 201),
);
tables.post("/:id/revoke", async (c) => json(c, await tableStub(c, c.req.param("id")).revoke(await readJson(c)), 201));
tables.post("/:id/delete", async (c) => json(c, await tableStub(c, c.req.param("id")).deleteTable(await readJson(c))));
tables.post("/:id/subtables", async (c) => {
  const parent = c.req.param("id");
  tableStub(c, parent); // refuses a malformed parent id before touching any object
  const body = await readJson(c);
  return json(c, await tableStub(c, configId(body)).openSubtable(parent, body), 201);
});

// Rooms (§5.10): the creator's invites (the directory makes the code) and ejections; a seat's note to its owner.
tables.post("/:id/invites", async (c) => {
  const table = c.req.param("id");
  const issued = unwrap(await tableStub(c, table).issueInvite(await readJson(c)));
  const { code } = unwrap(
    await inviteDirectory(c.env).register({
      table,
      invite: issued.invite,
      expires: issued.expires,
      ...(issued.replaces ? { replaces: issued.replaces } : {}),
    }),
  );
  const body: InviteResponse = {
    invite: issued.invite,
    code,
    expires: issued.expires,
    seq: issued.seq,
    head: issued.head,
  };
  return c.json(body, 201);
});

tables.post("/:id/eject", async (c) => json(c, await tableStub(c, c.req.param("id")).eject(await readJson(c)), 201));

tables.post("/:id/notes", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).noteOwner(await readJson(c)), 201),
);

// A seat and its own owner (§5.14): questions, answers and instructions; never entries.
tables.post("/:id/questions", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).askOwner(await readJson(c)), 201),
);
tables.get("/:id/questions", async (c) => json(c, await tableStub(c, c.req.param("id")).questions(readAuth(c))));
tables.get("/:id/questions/:q", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).question(readAuth(c), c.req.param("q"))),
);
tables.post("/:id/questions/:q/answer", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).answerQuestion(c.req.param("q"), await readJson(c)), 201),
);
tables.post("/:id/instructions", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).instruct(await readJson(c)), 201),
);
tables.get("/:id/instructions", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).instructions(readAuth(c), intParam(c, "after", 0))),
);

// Markets (§5.15): the live listings that fit a query, a match with its citation, and recording a match room's deal.
tables.get("/:id/listings", async (c) =>
  json(
    c,
    await tableStub(c, c.req.param("id")).listings(readAuth(c), Object.fromEntries(new URL(c.req.url).searchParams)),
  ),
);
tables.get("/:id/matches/:seq", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).match(readAuth(c), seqParam(c.req.param("seq")))),
);
tables.post("/:id/deals", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).recordDeal(await readJson(c)), 201),
);

// A market's chat groups (§5.15 "Groups"): the creator's code for a group (checked by the market, made by the chat directory),
// its signed unbinding (the group is freed in the directory once the market recorded it), and the groups with their delivery health.
tables.post("/:id/group-codes", async (c) => {
  const table = c.req.param("id");
  const { request, creatorKey } = unwrap(await tableStub(c, table).checkGroupCode(await readJson(c)));
  const { code, expires } = unwrap(await chatDirectory(c.env).createGroupCode(table, creatorKey, request));
  const { platform } = request.statement;
  const body: GroupCodeResponse = {
    code,
    platform,
    expires,
    send: chatPlatforms(c.env)[platform].groupInstructions(code),
  };
  return c.json(body, 201);
});
tables.post("/:id/groups/unbind", async (c) => {
  const table = c.req.param("id");
  const unbound = unwrap(await tableStub(c, table).unbindGroup(await readJson(c)));
  unwrap(await chatDirectory(c.env).releaseGroup(unbound.platform, unbound.group, table));
  const body: GroupUnbindResponse = { seq: unbound.seq, head: unbound.head };
  return c.json(body, 201);
});
tables.get("/:id/groups", async (c) => {
  const table = c.req.param("id");
  const { groups, head } = unwrap(await tableStub(c, table).groups(readAuth(c)));
  const audience = groupAudience(table);
  const { channels } = unwrap(await ownerObject(c.env, audience).channels(audience));
  const health = (g: { platform: string; group: string }) =>
    channels.find((ch) => ch.platform === g.platform && ch.account === g.group) ?? null;
  const body: GroupsResponse = {
    groups: groups.map((g) => ({ platform: g.platform, group: g.group, lang: g.lang, seq: g.seq, health: health(g) })),
    head,
  };
  return c.json(body);
});

tables.post("/:id/approvals", async (c) =>
  json(c, await tableStub(c, c.req.param("id")).approve(await readJson(c)), 201),
);

tables.get("/:id/tasks", async (c) => {
  const stub = tableStub(c, c.req.param("id"));
  return json(c, await stub.tasks(readAuth(c), intParam(c, "after", 0)));
});

tables.get("/:id/head", async (c) => json(c, await tableStub(c, c.req.param("id")).head()));

tables.get("/:id/projection", async (c) => {
  const stub = tableStub(c, c.req.param("id"));
  return json(c, await stub.projection(readAuth(c), intParam(c, "after", 0)));
});

tables.get("/:id/entries", async (c) => {
  const stub = tableStub(c, c.req.param("id"));
  const from = Math.max(1, intParam(c, "from", 1));
  return json(c, await stub.entries(readAuth(c), from, intParam(c, "to", Number.MAX_SAFE_INTEGER)));
});

tables.get("/:id/export", async (c) => {
  const text = unwrap(await tableStub(c, c.req.param("id")).exportLedger(readAuth(c)));
  return c.body(text, 200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="${c.req.param("id")}.jsonl"`,
  });
});

tables.get("/:id/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
  }
  const stub = tableStub(c, c.req.param("id"));
  return stub.fetch(c.req.raw);
});
