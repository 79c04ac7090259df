/**
 * Live tables as MCP resources (docs/MCP.md "Resources", decision 0482): this server
 * (`trestle://server`), and per table a template each for the seat's projection
 * (`trestle://tables/{table}/seat`), a room's state (`…/room`), the owner's pending decisions
 * (`…/pending`), and a market's listings and matches (`…/listings`, `…/matches`, decision 0522).
 * Text other seats wrote is framed as inert data, exactly as the tools show it (the same code
 * makes both). Reading, subscribing or listening to a table's resource follows that table
 * on its verified socket (the seat's; without a seat key, the owner session when this client can
 * show the owner a link, ./owner-session.ts), and every push tells the subscribers: `notifications/resources/updated` after
 * `resources/subscribe` on 2025-11-25, on the `subscriptions/listen` streams that name the URI on
 * 2026-07-28. Nothing is polled.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { randomBoundary } from "../client/index.js";
import { roomState as foldRoom, roomSummary, writesGuarded } from "../owner/index.js";
import { TableIdSchema, TrestleError } from "../protocol/index.js";
import { frameInert, safeLine } from "../text/framing.js";
import { unitsText } from "../text/market.js";
import { shortHash } from "../text/terms.js";
import { listingItem, matchItem, readMarket } from "./market-read.js";
import { TOOL_ICONS } from "./icons.js";
import { holdOwnerSession } from "./owner-session.js";
import { deliver, fetchView } from "./reading.js";
import { guardedSeat } from "./room-seat.js";
import type { McpSession } from "./session.js";
import { isAsk, type ElicitationModes, type ToolContext } from "./tool.js";
import { roomState } from "./tools/room-state.js";

/** Where a table's resource updates go: the subscribers of this connection, or the process's listen streams. */
export type ResourceFeed = (uri: string) => void;

/** The resource kinds of one table. */
const KINDS = ["seat", "room", "pending", "listings", "matches"] as const;
type Kind = (typeof KINDS)[number];

/** The seat's resource shows the prefix and at most this many of the newest entries. */
const RECENT = 100;

/** This server as a resource. */
export const SERVER_URI = "trestle://server";

/** The URI of `table`'s resource of `kind`. */
export function tableUri(table: string, kind: Kind): string {
  return `trestle://tables/${table}/${kind}`;
}

/** The URI templates of a table's resources, in KINDS order. */
export const TEMPLATE_URIS: readonly string[] = KINDS.map((kind) => tableUri("{table}", kind));

/** The table and kind a `trestle://tables/…` URI names, or null. */
export function parseTableUri(uri: string): { table: string; kind: Kind } | null {
  const match = /^trestle:\/\/tables\/([^/]+)\/([a-z]+)$/.exec(uri);
  if (!match || !(KINDS as readonly string[]).includes(match[2]!) || !TableIdSchema.safeParse(match[1]).success)
    return null;
  return { table: match[1]!, kind: match[2] as Kind };
}

const TEMPLATES: Record<Kind, { title: string; description: string }> = {
  seat: {
    title: "A seat's view of a table",
    description:
      "The table as this server's seat reads it: floor, pauses, tasks, the prefix (topic, rules, seats, decisions) and the newest entries, other seats' text framed as data. Updated on every entry.",
  },
  room: {
    title: "A room's state",
    description:
      "A room from its verified transcript: seats, live offers and grants, auctions, deals, the outcome, and what this seat's mandate allows. Updated on every entry.",
  },
  pending: {
    title: "Your owner's pending decisions",
    description:
      "What waits for the owner at a table: tasks awaiting their approval, messages the gate holds for them, deals they have not signed, their seats' open questions. Each is decided in the principal window or a terminal, never by the agent.",
  },
  listings: {
    title: "A market's listings",
    description:
      "Every listing of a market from its verified transcript, live first (each ended one with how it ended), titles and texts framed as data. Updated on every entry of the market.",
  },
  matches: {
    title: "A market's matches",
    description:
      "Every match of a market from its verified transcript, yours marked, each with its room and the deal recorded for it, and the market's recorded deals. Updated on every entry of the market.",
  },
};

/**
 * Registers the resource handlers on `server` for `session`; updates go to `feed`, else to this
 * connection's subscribers (all of a 2026-07-28 connection's listen streams, which filter them).
 * Returns how to follow the tables of URIs a `subscriptions/listen` names (listenedUris).
 */
export function registerResources(
  server: Server,
  session: McpSession,
  window: ToolContext["window"],
  modes: (ctx?: ServerContext) => ElicitationModes,
  feed?: ResourceFeed,
): (uris: readonly string[]) => void {
  const subscribed = new Set<string>();
  const publish: ResourceFeed =
    feed ??
    ((uri) => {
      const modern = server.getNegotiatedProtocolVersion() === "2026-07-28";
      if (modern || subscribed.has(uri)) void server.sendResourceUpdated({ uri }).catch(() => undefined);
    });
  const context = (ctx: ServerContext): ToolContext => ({
    session,
    elicitation: { form: false, url: false },
    inputResponses: {},
    state: undefined,
    window,
    boundary: randomBoundary,
    signal: ctx.mcpReq.signal,
    now: () => Date.now(),
    progress: () => undefined,
  });

  server.setRequestHandler("resources/list", () => ({ resources: listed(session) }));
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: KINDS.map((kind) => ({
      uriTemplate: tableUri("{table}", kind),
      name: `trestle-${kind}`,
      ...TEMPLATES[kind],
      mimeType: "text/plain",
      icons: TOOL_ICONS,
    })),
  }));
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    if (uri === SERVER_URI)
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(serverFacts(session)) }] };
    const named = parseTableUri(uri);
    if (!named)
      throw new ResourceNotFoundError(
        uri,
        `no resource ${uri}: this server's are trestle://server and trestle://tables/{table}/seat, /room, /pending, /listings and /matches`,
      );
    void follow(session, named.table, publish, modes(ctx).url);
    return { contents: [{ uri, mimeType: "text/plain", text: await render(context(ctx), named.table, named.kind) }] };
  });
  server.setRequestHandler("resources/subscribe", async (request, ctx) => {
    const named = parseTableUri(request.params.uri);
    if (!named) throw new ResourceNotFoundError(request.params.uri);
    subscribed.add(request.params.uri);
    await follow(session, named.table, publish, modes(ctx).url);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return (uris) => {
    for (const uri of uris) {
      const named = parseTableUri(uri);
      if (named) void follow(session, named.table, publish, false);
    }
  };
}

/** The resources to list: this server, and each table this session knows (the configured one first), in that order. */
function listed(session: McpSession) {
  const { settings } = session;
  const tables = [...new Set([...(session.active ? [session.active] : []), ...session.tables])];
  const kinds = (table: string): Kind[] => [
    ...(settings.seatKeyFile !== undefined ? (["seat"] as const) : []),
    ...(settings.seat !== undefined && writesGuarded(settings.home, table, settings.seat) ? (["room"] as const) : []),
    ...(settings.ownerKeyFile !== undefined ? (["pending"] as const) : []),
    ...(session.markets.has(table) ? (["listings", "matches"] as const) : []),
  ];
  return [
    {
      uri: SERVER_URI,
      name: "trestle-server",
      title: "This trestle server",
      description: "The relay, seat and owner this server acts for.",
      mimeType: "application/json",
      icons: TOOL_ICONS,
    },
    ...tables.flatMap((table) =>
      kinds(table).map((kind) => ({
        uri: tableUri(table, kind),
        name: `${table}-${kind}`,
        title: `${TEMPLATES[kind].title}: ${table}`,
        mimeType: "text/plain",
        icons: TOOL_ICONS,
      })),
    ),
  ];
}

/** What `trestle://server` says: the relay, the configured table, seat and owner names. */
function serverFacts(session: McpSession) {
  const { settings } = session;
  return {
    relay: settings.url,
    table: settings.table ?? null,
    seat: settings.seat ?? null,
    owner: settings.owner ?? null,
    stateless: session.stateless,
  };
}

/** One table resource as text: status lines, the owner's block, the framed data, as the tool shows it. */
async function render(ctx: ToolContext, table: string, kind: Kind): Promise<string> {
  try {
    if (kind === "seat") {
      const head = await (await ctx.session.client(table)).head();
      const state = { cursor: Math.max(0, head.seq - RECENT), prefix: null };
      return textOf(deliver(ctx, await fetchView(ctx, table, state), RECENT, state));
    }
    if (kind === "room") {
      const result = await roomState.call({ table }, ctx);
      if (isAsk(result)) throw new ProtocolError(ProtocolErrorCode.InternalError, "the room's state asked for input");
      const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n\n");
      if (result.isError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, text);
      return text;
    }
    if (kind === "pending") return (await pendingLines(ctx, table)).join("\n");
    return textOf(await marketBlock(ctx, table, kind));
  } catch (error) {
    if (error instanceof TrestleError)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.code}: ${safeLine(error.message, 500)}`);
    throw error;
  }
}

function textOf(reply: { status: string | readonly string[]; owner?: string | null; data?: string | null }): string {
  const status = typeof reply.status === "string" ? [reply.status] : reply.status;
  return [
    status.map((line) => safeLine(line, 2000)).join("\n"),
    ...(reply.owner ? [`Instructions from your owner:\n${reply.owner}`] : []),
    ...(reply.data ? [reply.data] : []),
  ].join("\n\n");
}

/** A market's listings or matches (and recorded deals) from its verified fold, framed as data. */
async function marketBlock(
  ctx: ToolContext,
  table: string,
  kind: "listings" | "matches",
): Promise<{ status: string[]; data: string }> {
  const { board, transcript, ownerKey } = await readMarket(ctx, table);
  const verified = `market ${table}, transcript ${transcript.report.verdict} (verified on this machine) up to entry #${transcript.entries.length}`;
  if (kind === "listings") {
    const live = board.listings.filter((l) => l.standing === "live").length;
    return {
      status: [`Listings of ${verified}: ${live} live, ${board.listings.length - live} ended.`],
      data: frameInert(board.listings.map(listingItem), ctx.boundary()),
    };
  }
  const deals = board.deals.map(
    (d) =>
      `  deal recorded at #${d.seq} for match #${d.match} (room ${d.room}) between ${d.owners[0]} and ${d.owners[1]}, closing ${unitsText(d.quantity)}, terms ${shortHash(d.deal)}`,
  );
  return {
    status: [
      `Matches of ${verified}: ${board.matches.length}, ${board.deals.length} deal${board.deals.length === 1 ? "" : "s"} recorded.`,
      ...deals,
    ],
    data: frameInert(
      board.matches.map((m) => matchItem(m, ownerKey)),
      ctx.boundary(),
    ),
  };
}

/** What waits for this server's owner at `table`: tasks awaiting their approval, held messages, unsigned deals, open questions of their seats. */
async function pendingLines(ctx: ToolContext, table: string): Promise<string[]> {
  const { session } = ctx;
  const owner = await session.ownerKey();
  const client = await session.client(table);
  const reader = { signer: owner.signer, as: { owner: owner.name } };
  const tasks = (await client.tasks(reader)).filter((t) => t.owner === owner.name && t.state === "awaiting_approval");
  const questions = (await client.http.questions(table, reader)).questions.filter((q) => q.state === "open");
  const lines = [
    `Pending decisions of owner ${owner.name} at table ${table} (each is theirs alone: the principal window, trestle view or a terminal):`,
  ];
  for (const t of tasks)
    lines.push(`  task ${t.id} awaits approval (proposal #${t.proposal}): trestle_approve or trestle_reject asks them`);
  for (const q of questions)
    lines.push(
      `  question ${q.question.question} from seat ${q.question.seat}, open until ${new Date(q.question.deadline).toISOString()}: trestle_owner_questions puts it to them`,
    );
  const seat = session.settings.seat;
  if (
    seat !== undefined &&
    session.settings.seatKeyFile !== undefined &&
    writesGuarded(session.settings.home, table, seat)
  ) {
    const guarded = await guardedSeat(ctx, table);
    for (const held of guarded.pending())
      lines.push(
        `  held ${held.submission.kind} ${held.message_sha256.slice(0, 16)} of seat ${seat}: trestle_room_send_held asks them`,
      );
    const transcript = await guarded.transcript();
    if (foldRoom(transcript).room) {
      for (const deal of roomSummary(transcript, ctx.now()).deals) {
        if (deal.status !== "done" && !deal.signed.includes(owner.name))
          lines.push(
            `  the deal on offer #${deal.terms.offer_seq} waits for their signature: trestle_deal_sign asks them`,
          );
      }
    }
  }
  if (lines.length === 1) lines.push("  nothing waits for them now");
  return lines;
}

/** The sessions' tables followed so far, so each is followed once. */
const following = new WeakMap<McpSession, Set<string>>();

/**
 * Follows `table` once for `session`, publishing its resources' URIs on every push: on the seat's
 * socket; without a seat key, on the owner session, held only when `canAskOwner` (the client can
 * show the owner a link, as ./owner-session.ts requires); else not at all.
 */
export async function follow(
  session: McpSession,
  table: string,
  publish: ResourceFeed,
  canAskOwner: boolean,
): Promise<void> {
  const tables = following.get(session) ?? new Set<string>();
  following.set(session, tables);
  const bySeat = session.settings.seatKeyFile !== undefined;
  if (tables.has(table) || (!bySeat && !canAskOwner)) return;
  tables.add(table);
  try {
    const live = await session.live(table);
    live.onPush(() => {
      for (const kind of KINDS) publish(tableUri(table, kind));
    });
    if (!bySeat) {
      if ((await holdOwnerSession({ session, elicitation: { form: false, url: canAskOwner } }, table)) !== "live")
        tables.delete(table);
      return;
    }
    const seat = await session.seatKey();
    await live.watch(seat.name, seat.signer);
  } catch (error) {
    tables.delete(table);
    session.deps.log(
      `cannot follow ${table} for its resources: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The `trestle://tables/…` URIs a client's `subscriptions/listen` request names (a JSON-RPC message, or a batch of them), to follow before its first update. */
export function listenedUris(message: unknown): string[] {
  const messages = Array.isArray(message) ? message : [message];
  return messages.flatMap((m) => {
    if (typeof m !== "object" || m === null || (m as { method?: unknown }).method !== "subscriptions/listen") return [];
    const uris = (m as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications
      ?.resourceSubscriptions;
    return Array.isArray(uris)
      ? uris.filter((uri): uri is string => typeof uri === "string" && parseTableUri(uri) !== null)
      : [];
  });
}
