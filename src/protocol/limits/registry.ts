/**
 * Every limit of a relay in one table (docs/SPEC.md §10, §10.1; docs/SELF-HOST.md "Limits"): one
 * row per limit with its value (or its operator default and public-demo default), its unit, where
 * it is counted or enforced, and the codes it answers with. LIMITS (limits.ts), OPERATOR_LIMITS
 * and DEMO_LIMITS (operator-limits.ts), the fixed windows and the names a rate refusal may carry
 * (rate-limited.ts) are derived from it; a new limit is one row here (docs/ARCHITECTURE.md).
 * Pure: values only.
 */
import type { ErrorCode } from "../errors.js";

/** Where a limit is counted or enforced, lowest layer first; each name says which object or part of the code holds it. */
export const LIMIT_LAYERS = {
  /** The protocol's schemas: a value past the limit does not parse, on the relay and in every client. */
  schema: "the protocol's schemas (src/protocol/schemas): a value past it does not parse",
  /** The protocol's policy: judged by admit against the table's state, on the relay and in every verifier's replay. */
  policy: "the protocol's policy (src/protocol/policy), replayed by every verifier",
  /** The protocol's reading and export code, run by the table object. */
  reading: "the protocol's projections and exports (src/protocol/reading, src/protocol/ledger)",
  /** The Worker, before any object is reached. */
  edge: "the Worker edge (worker/), before any object",
  /** The per-address counter object: one per client address and one per owner key, in SQLite. */
  address: "the per-address counter object (one per client address or owner key, SQLite)",
  /** The table object: in memory per table, or in its storage. */
  table: "the table object (durable-objects/table), per table",
  /** The invite directory object, relay-wide. */
  invites: "the invite directory object (durable-objects/invites), relay-wide",
  /** The chat directory object, relay-wide. */
  "chat-directory": "the chat directory object (durable-objects/chat-directory), relay-wide",
} as const;

/** A layer that counts or enforces a limit. */
export type LimitLayer = keyof typeof LIMIT_LAYERS;

/** What every row says: its unit, where it is counted, the codes a request past it is answered with (none: it cuts or closes instead), and what it counts. */
interface LimitFacts {
  readonly unit: string;
  readonly counted: readonly LimitLayer[];
  readonly codes: readonly ErrorCode[];
  readonly what: string;
}

/** A published limit (§10): one value for every relay, served at /.well-known/trestle.json under `limits`. */
export interface PublishedLimitRow extends LimitFacts {
  readonly kind: "published";
  readonly value: number;
}

/** An operator limit (§10.1): a default, a public demo's default, a setting `TRESTLE_LIMIT_<NAME>`, and for a rate the period its count refills in. */
export interface OperatorLimitRow extends LimitFacts {
  readonly kind: "operator";
  readonly default: number;
  readonly demo: number;
  readonly period_ms?: number;
  /** The bounds a setting must keep, when narrower than 0 to 10^12. */
  readonly min?: number;
  readonly max?: number;
}

/** A fixed-window count (§10): `count` per window of `window_ms` starting at multiples of it; a refusal waits until the window ends. */
export interface WindowLimitRow extends LimitFacts {
  readonly kind: "window";
  readonly count: number;
  readonly window_ms: number;
}

/** One row of the table. */
export type LimitRow = PublishedLimitRow | OperatorLimitRow | WindowLimitRow;

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const published = <const C extends readonly ErrorCode[]>(
  value: number,
  unit: string,
  counted: readonly LimitLayer[],
  codes: C,
  what: string,
) => ({ kind: "published", value, unit, counted, codes, what }) as const;

const rate = (deflt: number, demo: number, period_ms: number, counted: LimitLayer, what: string) =>
  ({
    kind: "operator",
    default: deflt,
    demo,
    period_ms,
    unit: period_ms === SEC ? "per second" : period_ms === MIN ? "per minute" : "per hour",
    counted: [counted],
    codes: ["E_RATE_LIMITED"],
    what,
  }) as const;

const operator = <const C extends readonly ErrorCode[]>(
  deflt: number,
  demo: number,
  unit: string,
  counted: LimitLayer,
  codes: C,
  what: string,
) => ({ kind: "operator", default: deflt, demo, unit, counted: [counted], codes, what }) as const;

const windowed = <const C extends readonly ErrorCode[]>(
  count: number,
  window_ms: number,
  unit: string,
  counted: LimitLayer,
  codes: C,
  what: string,
) => ({ kind: "window", count, window_ms, unit, counted: [counted], codes, what }) as const;

/** Every limit, by name: published limits in the order they are served, then the operator's, then the fixed windows. */
export const LIMIT_TABLE = {
  request_bytes: published(
    256 * 1024,
    "bytes",
    ["edge", "table"],
    ["E_TOO_LARGE"],
    "largest HTTP request body or WebSocket frame the relay reads",
  ),
  body_chars: published(
    32 * 1024,
    "chars",
    ["schema"],
    ["E_TOO_LARGE"],
    "longest body of one entry, before any floor truncation",
  ),
  max_chars_default: published(
    8000,
    "chars",
    ["policy"],
    [],
    "the `floor.max_chars` of a config that sets none; a longer body is cut",
  ),
  max_chars_ceiling: published(
    32 * 1024,
    "chars",
    ["schema"],
    ["E_TOO_LARGE"],
    "largest `floor.max_chars` a config may set",
  ),
  topic_chars: published(500, "chars", ["schema"], ["E_TOO_LARGE"], "longest topic"),
  owners: published(32, "owners", ["schema"], ["E_TOO_LARGE"], "owners per table"),
  seats: published(
    64,
    "seats",
    ["schema", "policy"],
    ["E_TOO_LARGE", "E_SEAT_LIMIT"],
    "seats per table, and keys seated in a table's life",
  ),
  entries: published(
    20_000,
    "entries",
    ["policy"],
    ["E_TOO_LARGE"],
    "entries per table ledger; the table closes with `ledger_full` when less than a turn is left",
  ),
  card_bytes: published(4096, "bytes", ["schema"], ["E_TOO_LARGE"], "a capability card, in bytes of canonical JSON"),
  to: published(16, "seats", ["schema"], ["E_TOO_LARGE"], "addressees per entry"),
  refs: published(16, "refs", ["schema"], ["E_TOO_LARGE"], "refs per entry"),
  effects: published(16, "effects", ["schema"], ["E_TOO_LARGE"], "effects per proposal or decision"),
  page: published(
    500,
    "entries",
    ["table", "reading"],
    [],
    "entries in one page of /entries or one projection tail; a longer range is cut",
  ),
  projection_body_chars: published(
    2000,
    "chars",
    ["reading"],
    [],
    "a projection body longer than this is cut to a prefix and an `entry:<seq>` reference",
  ),
  auth_window_ms: published(
    5 * MIN,
    "ms",
    ["edge", "table"],
    ["E_AUTH", "E_EXPIRED"],
    "how long a signed read authorization, socket challenge answer or owner statement stays valid",
  ),
  join_ttl_max_ms: published(
    7 * DAY,
    "ms",
    ["policy"],
    ["E_EXPIRED"],
    "how far after its receipt a join statement may expire",
  ),
  effect_args_bytes: published(
    2048,
    "bytes",
    ["schema"],
    ["E_TOO_LARGE"],
    "one effect's `args` or a receipt's `result`, in bytes of canonical JSON",
  ),
  auto_approve_rules: published(32, "rules", ["schema"], ["E_TOO_LARGE"], "`auto_approve` rules per owner"),
  chat_approve_rules: published(32, "rules", ["schema"], ["E_TOO_LARGE"], "`chat_approve` rules per owner"),
  heartbeat_ms_min: published(SEC, "ms", ["schema"], ["E_SCHEMA"], "least `watchdog.heartbeat_ms`"),
  heartbeat_ms_max: published(30 * DAY, "ms", ["schema"], ["E_TOO_LARGE"], "most `watchdog.heartbeat_ms`"),
  open_proposals: published(
    16,
    "proposals",
    ["policy"],
    [],
    "proposals open for votes at once; a newer one closes the oldest to votes",
  ),
  subtables: published(64, "sub-tables", ["policy"], ["E_NOT_ALLOWED"], "sub-tables one table may open"),
  json_depth: published(
    64,
    "levels",
    ["edge", "table"],
    ["E_SCHEMA"],
    "deepest nesting of arrays and objects in a request body or WebSocket frame",
  ),
  terms_text_chars: published(2000, "chars", ["schema"], ["E_TOO_LARGE"], "the text of a room offer's terms"),
  invites: published(64, "invites", ["policy"], ["E_TOO_LARGE"], "invites one room may issue"),
  invite_ttl_max_ms: published(
    7 * DAY,
    "ms",
    ["policy"],
    ["E_EXPIRED"],
    "how long after its issue an invite may stay valid",
  ),
  note_chars: published(1000, "chars", ["schema"], ["E_TOO_LARGE"], "a note a seat sends its owner"),
  auctions: published(16, "auctions", ["policy"], ["E_TOO_LARGE"], "sealed-bid auctions one room may open"),
  auction_ttl_max_ms: published(
    7 * DAY,
    "ms",
    ["policy"],
    ["E_EXPIRED"],
    "how long after its open an auction's reveal deadline, or after it is written a sealed listing's reveal_until, may lie",
  ),
  replica_page_bytes: published(
    1024 * 1024,
    "bytes",
    ["edge"],
    ["E_TOO_LARGE"],
    "the largest replica page a relay reads",
  ),
  export_head_bytes: published(
    256 * 1024,
    "bytes",
    ["reading"],
    [],
    "an export carries a signed head after each run of entry lines longer than this",
  ),
  market_members: published(
    1000,
    "owners",
    ["policy"],
    ["E_SEAT_LIMIT"],
    "members one market admits in its life (its `max_members` at most this)",
  ),
  market_seats: published(
    2048,
    "seats",
    ["policy"],
    ["E_SEAT_LIMIT"],
    "keys one market seats in its life, revoked ones included",
  ),
  market_categories: published(64, "categories", ["schema"], ["E_TOO_LARGE"], "categories of one market"),
  listings_per_member: published(
    100,
    "listings",
    ["schema", "policy"],
    ["E_TOO_LARGE"],
    "live listings one member holds in one market (its `listings_per_member` at most this)",
  ),
  listing_title_chars: published(120, "chars", ["schema"], ["E_TOO_LARGE"], "a listing's title"),
  listing_quantity: published(1_000_000, "units", ["schema"], ["E_TOO_LARGE"], "a listing's quantity"),
  listing_ttl_max_ms: published(
    90 * DAY,
    "ms",
    ["schema"],
    ["E_TOO_LARGE"],
    "the longest `listing_ttl_ms` a market may set",
  ),
  matches_per_listing: published(
    8,
    "matches",
    ["policy"],
    [],
    "matches one listing makes when it is written: the best by title words in common, then the oldest",
  ),
  match_scan: published(
    1000,
    "listings",
    ["policy"],
    [],
    "live listings of the other side in its category a new listing is compared with, the newest first",
  ),
  market_groups: published(16, "groups", ["policy"], ["E_NOT_ALLOWED"], "chat groups bound to one market at once"),

  seat_writes_per_min: rate(120, 30, MIN, "table", "entries one seat writes at one table, HTTP and socket alike"),
  owner_writes_per_min: rate(60, 20, MIN, "table", "approvals, pauses and resumes one owner signs at one table"),
  reads_per_min: rate(
    300,
    120,
    MIN,
    "table",
    "signed reads (projection, entries, tasks, export) by one seat or owner at one table",
  ),
  socket_frames_per_s: rate(20, 10, SEC, "table", "frames one socket sends; a socket far past it is closed (4429)"),
  sockets_per_table: operator(
    256,
    32,
    "sockets",
    "table",
    ["E_RATE_LIMITED"],
    "seat and owner sockets open at one table",
  ),
  sockets_per_seat: operator(
    4,
    2,
    "sockets",
    "table",
    ["E_RATE_LIMITED"],
    "sockets one seat, or one owner's sessions, hold open at one table",
  ),
  public_sockets_per_table: operator(
    200,
    50,
    "sockets",
    "table",
    ["E_RATE_LIMITED"],
    "receive-only public sockets at one public table",
  ),
  socket_auth_ms: {
    ...operator(
      10 * SEC,
      10 * SEC,
      "ms",
      "table",
      [],
      "a socket that has not answered its challenge this long after opening is closed (4408)",
    ),
    min: SEC,
    max: 30 * SEC,
  },
  client_tables_per_hour: rate(
    60,
    10,
    HOUR,
    "address",
    "tables and sub-tables opened, or taken into custody, from one client address",
  ),
  client_joins_per_min: rate(60, 20, MIN, "address", "join requests from one client address"),
  client_connects_per_min: rate(60, 30, MIN, "address", "WebSocket upgrades from one client address"),
  client_pages_per_hour: rate(
    600,
    60,
    HOUR,
    "address",
    "replica pages (mirror feeds and imports) from one client address",
  ),
  edge_reads_per_min: rate(
    600,
    600,
    MIN,
    "edge",
    "unsigned reads (head, public export) from one client address; approximate, per location",
  ),
  owner_tables_per_hour: rate(60, 10, HOUR, "address", "tables one owner key opens"),
  owner_tables: operator(
    1000,
    20,
    "tables",
    "address",
    ["E_QUOTA"],
    "tables one owner key holds at once (opened and not yet deleted)",
  ),
  table_ttl_ms: operator(
    0,
    DAY,
    "ms",
    "table",
    ["E_TABLE_DELETED"],
    "a table is deleted this long after it was opened (0: never)",
  ),
  closed_table_ttl_ms: operator(
    0,
    HOUR,
    "ms",
    "table",
    ["E_TABLE_DELETED"],
    "a table is deleted this long after it closed (0: never)",
  ),

  invite_misses_per_client: windowed(
    5,
    15 * MIN,
    "codes",
    "invites",
    ["E_RATE_LIMITED"],
    "wrong invite codes from one client address",
  ),
  invite_misses_relay: windowed(
    100,
    HOUR,
    "codes",
    "invites",
    ["E_RATE_LIMITED"],
    "wrong invite codes on the whole relay",
  ),
  notes_per_seat: windowed(10, 10 * MIN, "notes", "table", ["E_RATE_LIMITED"], "notes one seat sends its owner"),
  bind_codes_per_owner: windowed(
    5,
    15 * MIN,
    "codes",
    "chat-directory",
    ["E_RATE_LIMITED"],
    "bind codes one owner key asks for",
  ),
  bind_misses_per_account: windowed(
    5,
    15 * MIN,
    "codes",
    "chat-directory",
    [],
    "wrong bind codes from one chat account; past it the bot refuses every code from it, right ones too, until the window ends",
  ),
  group_commands_per_member: windowed(
    5,
    MIN,
    "commands",
    "chat-directory",
    [],
    "commands one member sends from one bound group; past it the member is told to wait, privately, and nothing is done",
  ),
  group_commands_per_group: windowed(
    30,
    MIN,
    "commands",
    "chat-directory",
    [],
    "commands from all members of one bound group; past it each is told to wait, privately, and nothing is done",
  ),
  bind_misses_relay: windowed(
    100,
    HOUR,
    "codes",
    "chat-directory",
    [],
    "wrong bind codes on the whole relay; past it every bind is refused until the window ends",
  ),
} as const satisfies Record<string, LimitRow>;

/** The name of any limit. */
export type LimitName = keyof typeof LIMIT_TABLE;

type Table = typeof LIMIT_TABLE;

/** The names of the rows of one kind. */
export type LimitNameOf<Kind extends LimitRow["kind"]> = {
  [K in LimitName]: Table[K]["kind"] extends Kind ? K : never;
}[LimitName];

/** The names of the limits a relay refuses with E_RATE_LIMITED. */
export type RateLimitName = {
  [K in LimitName]: Table[K]["codes"] extends readonly (infer C)[] ? ("E_RATE_LIMITED" extends C ? K : never) : never;
}[LimitName];

/** Every row, with its name, in the table's order. */
export function limitRows(): { name: LimitName; row: LimitRow }[] {
  return (Object.keys(LIMIT_TABLE) as LimitName[]).map((name) => ({ name, row: LIMIT_TABLE[name] }));
}

/** `pick(row)` for every row of `kind`, by name, in the table's order. */
export function limitsOf<Kind extends LimitRow["kind"], V>(
  kind: Kind,
  pick: (row: Extract<LimitRow, { kind: Kind }>) => V,
): Record<LimitNameOf<Kind>, V> {
  const out: Record<string, V> = {};
  for (const { name, row } of limitRows())
    if (row.kind === kind) out[name] = pick(row as Extract<LimitRow, { kind: Kind }>);
  return out as Record<LimitNameOf<Kind>, V>;
}
