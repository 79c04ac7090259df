/**
 * A market from the client's side (docs/SPEC.md §5.15, decision 0460): the config its creator
 * signs, searches (a signed read, or an unsigned one at a public market), a match read with its
 * citation checked against the pinned relay key and the room id it determines, the config of that
 * room, one owner's matches in a verified fold, whether a match's room exists, and asking the
 * market to record a match room's deal. Every head the relay returns is judged by the market's
 * TableClient; a citation the pinned key did not sign is refused before anything is built on it.
 */
import {
  citedHead,
  citedMatch,
  leafOf,
  LIMITS,
  ListingQuerySchema,
  matchRoomId,
  otherSide,
  parseOrThrow,
  requireMarket,
  TrestleError,
  validateConfig,
  verifyStatement,
  type DealRecordResponse,
  type ListingQuery,
  type ListingSide,
  type ListingsResponse,
  type MatchParty,
  type MatchResponse,
  type SignedHead,
  type TableConfig,
  type TableState,
  type UnchainedEntry,
} from "../protocol/index.js";
import type { HttpClient, Reader } from "./http.js";
import type { TableClient } from "./table-client.js";

/** What a market's creator chooses (docs/SPEC.md §5.15): its id, topic and creator, its categories and rules. */
export interface MarketFields {
  id: string;
  topic: string;
  owner: string;
  ownerKey: string;
  categories: string[];
  listingTtlMs: number;
  listingsPerMember: number;
  maxMembers?: number;
  /** Anyone may read it, search it and follow it without a signature. */
  public?: boolean;
  /** The market closes after this many entries (default LIMITS.entries). */
  maxEntries?: number;
}

/** A market's config: an open table listing only its creator, with `market` holding its rules; E_SCHEMA naming the field a market cannot have. */
export function marketConfigFor(fields: MarketFields): TableConfig {
  return validateConfig({
    id: fields.id,
    topic: fields.topic,
    owners: { [fields.owner]: { public_key: fields.ownerKey } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: fields.maxEntries ?? LIMITS.entries }] },
    market: {
      categories: fields.categories,
      listing_ttl_ms: fields.listingTtlMs,
      listings_per_member: fields.listingsPerMember,
      ...(fields.maxMembers === undefined ? {} : { max_members: fields.maxMembers }),
    },
    ...(fields.public ? { public: true } : {}),
  });
}

/** The config of the room for `match` (read with MarketClient.match), created by `owner` (key `ownerKey`), one side of it: it admits the other side alone and closes at a decision or after `maxEntries` entries (default 500). E_FORBIDDEN when `ownerKey` is neither side. */
export function matchRoomConfigFor(
  match: MatchResponse,
  fields: { owner: string; ownerKey: string; topic?: string; maxEntries?: number },
): TableConfig {
  const { citation } = match;
  if (!otherSide(citation, fields.ownerKey))
    throw new TrestleError(
      "E_FORBIDDEN",
      `match ${citation.seq} of ${citation.market} is between ${citation.data.offered_by.owner} and ${citation.data.wanted_by.owner}; your key is neither side`,
    );
  return validateConfig({
    id: match.room,
    topic: fields.topic ?? `Room for match ${citation.seq} of ${citation.market}`,
    owners: { [fields.owner]: { public_key: fields.ownerKey } },
    topology: { kind: "open" },
    termination: { any: ["decision", { max_entries: fields.maxEntries ?? 500 }] },
    room: { max_parties: 1, match: citation },
  });
}

/** One owner's part in a match, as a verified fold of the market holds it. */
export interface OwnMatch {
  /** The match entry's seq. */
  seq: number;
  /** The side of this owner's listing. */
  side: ListingSide;
  /** This owner's listing and the other side's, by leaf. */
  mine: string;
  theirs: string;
  /** The other side's owner and key, as the match names them. */
  other: MatchParty;
  quantity: number;
  /** The id of the match's room (`mr-` and 40 hex digits of the match's leaf). */
  room: string;
  /** The seq of the deal the market recorded for the match, or null. */
  deal: number | null;
}

/** The matches of `state` (a market's fold) in which `ownerKey` is a side, oldest first; E_NOT_ALLOWED when the table is no market. */
export function matchesOf(state: TableState, ownerKey: string): OwnMatch[] {
  const market = requireMarket(state, "matches");
  const out: OwnMatch[] = [];
  for (const [seq, m] of Object.entries(market.matches)) {
    const offering = m.offered_by.key === ownerKey;
    if (!offering && m.wanted_by.key !== ownerKey) continue;
    const [mine, theirs, other] = offering ? [m.offer, m.want, m.wanted_by] : [m.want, m.offer, m.offered_by];
    out.push({
      seq: Number(seq),
      side: offering ? "offer" : "want",
      mine,
      theirs,
      other,
      quantity: m.quantity,
      room: m.room,
      deal: m.deal,
    });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** Whether a room is there on the relay: `none` (never created), `open` (created, whatever its state), or `deleted`. */
export type RoomPresence = "none" | "open" | "deleted";

/** Whether the table `room` exists on the relay `http` talks to, asked with its (unsigned) head; any other refusal is thrown. */
export async function roomPresence(http: HttpClient, room: string): Promise<RoomPresence> {
  try {
    await http.head(room);
    return "open";
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_TABLE_NOT_FOUND") return "none";
    if (error instanceof TrestleError && error.code === "E_TABLE_DELETED") return "deleted";
    throw error;
  }
}

/** A market's reads and its deal records, each head judged by the market's TableClient. */
export class MarketClient {
  constructor(readonly client: TableClient) {}

  /** The market's id. */
  get table(): string {
    return this.client.table;
  }

  /**
   * The live listings that fit `query` (E_SCHEMA before sending for a query the protocol refuses),
   * newest first, read as `reader` (none: only at a public market). The answer's head is checked
   * against the held one (older is truncation) and, with a reader, the chain caught up to it; the
   * listings are the relay's answer, which a fold of the verified export recomputes (searchListings).
   */
  async search(query: ListingQuery, reader?: Reader): Promise<ListingsResponse> {
    const checked = parseOrThrow(ListingQuerySchema, query, "listing query");
    const answer = await this.judged(() => this.client.http.listings(this.table, checked, reader), reader);
    const late = answer.items.find((item) => item.seq > answer.head.seq);
    if (late)
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `listing #${late.seq} is past the head (${answer.head.seq}) it was answered at`,
      );
    return answer;
  }

  /**
   * The match at `seq` with the citation its room's config carries, read as `reader`. The citation
   * is checked here: for this market and seq, its head signed by the pinned relay key, and the
   * room id the one its match's leaf determines; its head is then judged like any other (a second
   * head at that seq with another link is a fork). E_BAD_RESPONSE when any of that fails.
   */
  async match(seq: number, reader?: Reader): Promise<MatchResponse> {
    await this.client.tracker.checkClean();
    const answer = await this.client.http.match(this.table, seq, reader);
    const { citation } = answer;
    if (citation.market !== this.table || citation.seq !== seq)
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `the relay answered match ${seq} of ${this.table} with the citation of match ${citation.seq} of ${citation.market}`,
      );
    const statement = citedHead(citation, this.client.tracker.relayKey);
    if (!(await verifyStatement(statement.relay, "head", statement, citation.sig)))
      throw new TrestleError("E_BAD_RESPONSE", `the citation of match ${seq} is not signed by the pinned relay key`);
    const room = matchRoomId(leafOf(citedMatch(citation) as UnchainedEntry));
    if (answer.room !== room)
      throw new TrestleError("E_BAD_RESPONSE", `the room of match ${seq} is ${room}, not ${answer.room}`);
    await this.client.tracker.observe({ ...statement, sig: citation.sig });
    return answer;
  }

  /** Asks the market to record the done deal of match room `room` (the relay reads it from the room; a recorded deal answers its entry again); its head is judged, and with `reader` the chain caught up to it. */
  recordDeal(room: string, reader?: Reader): Promise<DealRecordResponse> {
    return this.judged(() => this.client.http.recordDeal(this.table, room), reader);
  }

  /** Runs `call`, whose answer carries the market's current head, and judges that head against the one held before it. */
  private async judged<T extends { head: SignedHead }>(call: () => Promise<T>, reader?: Reader): Promise<T> {
    await this.client.tracker.checkClean();
    const since = this.client.tracker.held;
    const answer = await call();
    await this.client.tracker.observe(answer.head, since);
    if (reader) await this.client.catchUp(reader);
    return answer;
  }
}
