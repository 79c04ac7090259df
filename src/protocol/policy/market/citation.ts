/**
 * A room opened from a market's match (docs/SPEC.md §5.15, decision 0460): the match entry its
 * config's citation rebuilds, the room id that match determines (`mr-` and the first 40 hex digits
 * of the match's leaf, which only a config citing that match may take), and the relay's head
 * statement the citation's signature is checked against. The signature itself is checked by the
 * relay before the room opens and by every verifier as a statement the room's first entry records
 * (signing/market.ts); here are the pure rules.
 */
import { TrestleError } from "../../errors.js";
import { leafOf, linkOf } from "../../ledger/chain.js";
import type { TableConfig } from "../../schemas/config.js";
import type { SystemEntryOf, UnchainedEntry } from "../../schemas/entry.js";
import type { HeadStatement } from "../../schemas/head.js";
import type { MatchCitation, MatchParty } from "../../schemas/match.js";

/** The prefix of every match room's id; a config without a match citation may not take such an id. */
export const MATCH_ROOM_PREFIX = "mr-";

/** The match entry a citation describes, without leaf and link. */
export function citedMatch(citation: MatchCitation): Omit<SystemEntryOf<"match">, "leaf" | "link"> {
  return {
    seq: citation.seq,
    ts: citation.ts,
    table: citation.market,
    seat: null,
    kind: "system",
    subkind: "match",
    data: citation.data,
    author: null,
  };
}

/** The citation of `entry`, a match entry of a market whose link before it is `prevLink`, with the relay's signature `sig` of its head. */
export function citeMatch(
  entry: Pick<SystemEntryOf<"match">, "table" | "seq" | "ts" | "data">,
  prevLink: string,
  sig: string,
): MatchCitation {
  return { market: entry.table, seq: entry.seq, ts: entry.ts, data: entry.data, prev_link: prevLink, sig };
}

/** The id of the room for the match whose entry has leaf `leaf`. */
export function matchRoomId(leaf: string): string {
  return `${MATCH_ROOM_PREFIX}${leaf.slice(0, 40)}`;
}

/** The head statement (relay `relay`) the citation's signature must verify against: the market at the match's seq, with the link the cited entry makes. */
export function citedHead(citation: MatchCitation, relay: string): HeadStatement {
  const leaf = leafOf(citedMatch(citation) as UnchainedEntry);
  return { relay, table: citation.market, seq: citation.seq, link: linkOf(citation.prev_link, leaf) };
}

/** The other side of the match for the owner with key `key`; undefined when `key` is neither side's. */
export function otherSide(citation: MatchCitation, key: string): MatchParty | undefined {
  const { offered_by, wanted_by } = citation.data;
  if (key === offered_by.key) return wanted_by;
  if (key === wanted_by.key) return offered_by;
  return undefined;
}

/**
 * Throws E_SCHEMA unless a config that cites a match has the id that match determines, admits one
 * party and is no market, and unless a config that takes a match room's id cites a match.
 */
export function checkMatchRoomConfig(config: TableConfig): void {
  const citation = config.room?.match;
  if (!citation) {
    if (config.id.startsWith(MATCH_ROOM_PREFIX))
      fail("id", `ids starting "${MATCH_ROOM_PREFIX}" are the rooms of market matches: this config cites none`);
    return;
  }
  const leaf = leafOf(citedMatch(citation) as UnchainedEntry);
  if (config.id !== matchRoomId(leaf)) fail("id", `the room of this match is "${matchRoomId(leaf)}"`);
  if (config.room?.max_parties !== undefined && config.room.max_parties !== 1)
    fail("room.max_parties", "the room of a match admits one party: the other side");
  if (config.market) fail("market", "the room of a match is not a market");
}

/** Throws E_SCHEMA unless the room of a match lists exactly one owner, its creator `creator`, whose key is one side of the match. */
export function checkMatchRoomCreator(config: TableConfig, creator: string): void {
  if (!config.room?.match) return;
  const owners = Object.entries(config.owners);
  if (owners.length !== 1 || owners[0]![0] !== creator)
    fail("owners", "the room of a match lists one owner: its creator, one side of the match");
  if (!otherSide(config.room.match, owners[0]![1].public_key))
    fail(`owners.${creator}.public_key`, "the creator's key is neither side of the match");
}

function fail(path: string, message: string): never {
  throw new TrestleError("E_SCHEMA", `config at ${path}: ${message}`, { issues: [{ path, message }] });
}
