/**
 * Published size and count limits; the relay enforces each one and serves them at
 * /.well-known/trestle.json so clients can check before sending (docs/SPEC.md §10).
 */

/** Every limit, in characters (UTF-16 code units), bytes, counts or milliseconds as named. */
export const LIMITS = {
  /** Largest HTTP request body or WebSocket frame the relay reads, in bytes. */
  request_bytes: 256 * 1024,
  /** Longest body of one entry, in characters, before any floor truncation. */
  body_chars: 32 * 1024,
  /** Default and largest `floor.max_chars` a config may set. */
  max_chars_default: 8000,
  max_chars_ceiling: 32 * 1024,
  /** Longest topic, in characters. */
  topic_chars: 500,
  /** Owners and seats per table. */
  owners: 32,
  seats: 64,
  /** Entries per table ledger; the table closes with reason `ledger_full` when reached. */
  entries: 20_000,
  /** Capability card size, in bytes of canonical JSON. */
  card_bytes: 4096,
  /** Addressees, refs and effects per entry. */
  to: 16,
  refs: 16,
  effects: 16,
  /** Entries returned by one page of /entries or one projection tail. */
  page: 500,
  /** Projection bodies longer than this are cut to a prefix plus an `entry:<seq>` reference. */
  projection_body_chars: 2000,
  /** A signed request authorization or WebSocket challenge is valid this long. */
  auth_window_ms: 5 * 60 * 1000,
  /** A join statement may not expire later than this after the relay receives it. */
  join_ttl_max_ms: 7 * 24 * 60 * 60 * 1000,
  /** Commit gateway: one effect's `args` in bytes of canonical JSON; auto-approve rules per owner. */
  effect_args_bytes: 2048,
  auto_approve_rules: 32,
  /** Chat apps: `chat_approve` rules per owner (docs/SPEC.md §5.6). */
  chat_approve_rules: 32,
  /** Commit gateway: the bounds of `watchdog.heartbeat_ms`. */
  heartbeat_ms_min: 1000,
  heartbeat_ms_max: 30 * 24 * 60 * 60 * 1000,
  /** Proposals open for votes at once; a newer proposal closes the oldest to votes. */
  open_proposals: 16,
  /** Sub-tables one table may open. */
  subtables: 64,
  /** Deepest nesting of arrays and objects in a request body or WebSocket frame. */
  json_depth: 64,
  /** Rooms (docs/SPEC.md §5.10): the text of an offer's terms, in characters. */
  terms_text_chars: 2000,
  /** Invites one room may issue, and how long after its issue an invite may stay valid. */
  invites: 64,
  invite_ttl_max_ms: 7 * 24 * 60 * 60 * 1000,
  /** A note a seat sends its owner, in characters (a chat notification's text limit). */
  note_chars: 1000,
  /** Sealed-bid auctions (docs/SPEC.md §5.11): auctions one room may open, and how long after its open an auction's reveal deadline may lie. */
  auctions: 16,
  auction_ttl_max_ms: 7 * 24 * 60 * 60 * 1000,
  /** Custody and mirrors (docs/SPEC.md §8.4): the largest replica page a relay reads, in bytes. */
  replica_page_bytes: 1024 * 1024,
  /** An export carries a signed head after each run of entry lines longer than this, in bytes, so it can be replayed into a replica page by page. */
  export_head_bytes: 256 * 1024,
} as const;
