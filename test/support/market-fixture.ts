/**
 * Markets for protocol tests (docs/SPEC.md §5.15): the parents' swap market (created by hana;
 * members admitted by invites bound to their keys), driven through MemoryLedger with the real admit
 * and chain code, plus helpers that sign listings, cite a match, open its room on a second ledger
 * of the same relay, and record a deal as the relay would.
 */
import {
  citeMatch,
  createDraft,
  dealQuantity,
  dealStatement,
  exportText,
  inviteDraft,
  joinDraft,
  listingBidCommitment,
  matchRoomId,
  signCreate,
  signHead,
  signInvite,
  signJoin,
  signStatement,
  type DistributiveOmit,
  type Entry,
  type MatchCitation,
  type Signer,
  type SubmissionInput,
  type SystemEntryOf,
  type TableConfig,
  type TableState,
} from "../../src/protocol/index.js";
import { castKey, keyOf, MemoryLedger, nonceOf } from "./table-fixture.js";

/** The owners of the swap market: hana created it; the rest are members. */
export const MARKET_MEMBERS = ["ana", "ben", "chen", "dora", "eli"] as const;
export type Member = (typeof MARKET_MEMBERS)[number] | "hana";

/** The market's keys: hana, every member, and the relay; with a `label`, keys of its own. */
export async function marketCast(label?: string) {
  const k = (name: string) => castKey(name, label);
  const owners = {} as Record<Member, Signer>;
  for (const name of ["hana", ...MARKET_MEMBERS] as const) owners[name] = await k(`owner:${name}`);
  return { relay: await k("relay"), owners };
}
export type MarketCast = Awaited<ReturnType<typeof marketCast>>;

/** The swap market's config: two categories, listings live up to 7 days, 5 live listings a member. */
export function marketConfig(k: MarketCast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "m-parents-swap",
    topic: "Parents' swap: used baby gear",
    owners: { hana: { public_key: k.owners.hana.publicKeyText } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 20_000 }] },
    market: { categories: ["baby-gear", "books"], listing_ttl_ms: 7 * 86_400_000, listings_per_member: 5 },
    ...overrides,
  };
}

/** The salt the fixture uses for `member`'s sealed bids (fixed, so a test can reveal it again). */
export function bidSalt(member: string): string {
  return nonceOf(`listing-bid-salt:${member}`);
}

/** A listing as a test writes it: everything but the authored fields, `expires` defaulted to a day on. */
export type ListingInput = Omit<
  Extract<SubmissionInput, { kind: "listing" }>,
  "table" | "seat" | "nonce" | "kind" | "expires"
> & { expires?: number };

/** A market driven through MemoryLedger by owner name (each member's seat is `<owner>-bot`). */
export class MarketLedger {
  readonly l: MemoryLedger;
  private invites = 0;

  private constructor(readonly k: MarketCast) {
    this.l = new MemoryLedger(k.relay);
  }

  /** Opens `config` (default the swap market) as hana, seats hana-bot, and admits and seats `members` (default all). */
  static async open(
    options: { config?: Partial<TableConfig>; members?: readonly Member[] } = {},
    k?: MarketCast,
  ): Promise<MarketLedger> {
    const m = new MarketLedger(k ?? (await marketCast()));
    await m.l.create(m.k.owners.hana, "hana", marketConfig(m.k, options.config));
    await m.l.join(m.k.owners.hana, "hana", "hana-bot", await m.seatKey("hana-bot"));
    for (const member of options.members ?? MARKET_MEMBERS) await m.admit(member);
    return m;
  }

  /** The deterministic key of seat `seat`. */
  seatKey(seat: string): Promise<Signer> {
    return keyOf(`seat:${seat}`);
  }

  /** Hana issues an invite bound to `member`'s key, which `member` uses with a plain join for `<member>-bot`. */
  async admit(member: Member): Promise<Entry[]> {
    this.invites += 1;
    const invite = nonceOf(`market-invite:${this.invites}`);
    const key = this.k.owners[member];
    this.l.append(
      inviteDraft(
        this.state,
        await signInvite(this.k.owners.hana, {
          table: this.state.table,
          invite,
          expires: this.l.now + 3_600_000,
          owner_key: key.publicKeyText,
        }),
      ),
    );
    const seat = `${member}-bot`;
    const request = await signJoin(
      key,
      {
        table: this.state.table,
        seat,
        owner: member,
        seat_key: (await this.seatKey(seat)).publicKeyText,
        human: false,
        nonce: nonceOf(`join:${seat}`),
        expires: this.l.now + 60_000,
        invite,
        owner_key: key.publicKeyText,
      },
      { summary: `${member}'s trading agent` },
    );
    return this.l.append(joinDraft(this.state, request));
  }

  /** Submits as `seat`, signed with its own key. */
  async write(
    seat: string,
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat"> & { nonce?: string },
  ): Promise<Entry[]> {
    return this.l.submit(await this.seatKey(seat), { seat, ...input } as Omit<SubmissionInput, "table" | "nonce">);
  }

  /** `member`'s seat lists `input`; returns every entry written (the listing, then its matches). */
  list(member: Member, input: ListingInput): Promise<Entry[]> {
    return this.write(`${member}-bot`, { kind: "listing", expires: this.l.now + 86_400_000, ...input });
  }

  /** `member`'s seat commits a sealed bid of `bid` on the listing at `listing`, salted with bidSalt(member) unless `salt` is given. */
  commitBid(member: Member, listing: string, bid: number, salt = bidSalt(member)): Promise<Entry[]> {
    const commitment = listingBidCommitment({ table: this.state.table, listing, bidder: member, bid, salt });
    return this.write(`${member}-bot`, { kind: "bid", op: "commit", listing, commitment });
  }

  /** `member`'s seat reveals `bid` on the listing at `listing` with bidSalt(member) unless `salt` is given; returns every entry written (a deciding reveal's settlement and match follow it). */
  revealBid(member: Member, listing: string, bid: number, salt = bidSalt(member)): Promise<Entry[]> {
    return this.write(`${member}-bot`, { kind: "bid", op: "reveal", listing, bid, salt });
  }

  /** The matches among `entries`. */
  static matches(entries: readonly Entry[]): SystemEntryOf<"match">[] {
    return entries.filter((e): e is SystemEntryOf<"match"> => e.kind === "system" && e.subkind === "match");
  }

  /** The citation of the match at `seq`, with the relay's head signature over it. */
  async cite(seq: number): Promise<MatchCitation> {
    const entry = this.l.entries[seq - 1]!;
    if (entry.kind !== "system" || entry.subkind !== "match") throw new Error(`entry ${seq} is not a match`);
    const prev = seq === 1 ? "0".repeat(64) : this.l.entries[seq - 2]!.link;
    const head = await signHead(this.k.relay, { table: entry.table, seq, link: entry.link });
    return citeMatch(entry, prev, head.sig);
  }

  /** The room config of the match at `seq`, created by `creator`, one side of it. */
  async roomConfig(seq: number, creator: Member, overrides: Partial<TableConfig> = {}): Promise<TableConfig> {
    const citation = await this.cite(seq);
    const match = this.l.entries[seq - 1] as SystemEntryOf<"match">;
    return {
      id: matchRoomId(match.leaf),
      topic: `Room for match ${seq}`,
      owners: { [creator]: { public_key: this.k.owners[creator].publicKeyText } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 200 }] },
      room: { match: citation },
      ...overrides,
    };
  }

  /** Opens the room of the match at `seq` on a ledger of the same relay, created by `creator`. */
  async openRoom(seq: number, creator: Member, overrides: Partial<TableConfig> = {}): Promise<MemoryLedger> {
    const room = new MemoryLedger(this.k.relay);
    room.now = this.l.now;
    const config = await this.roomConfig(seq, creator, overrides);
    room.append(createDraft(await signCreate(this.k.owners[creator], config, creator), this.k.relay.publicKeyText));
    return room;
  }

  /** The draft of the market's record of a deal on the match at `seq`, signed by both sides' owners over `deal` (or by `signers`). */
  async dealDraft(
    seq: number,
    deal: string,
    options: { room?: string; quantity?: number; signers?: [Member, Member] } = {},
  ) {
    const match = this.state.market!.matches[String(seq)]!;
    const room = options.room ?? match.room;
    const [offering, wanting] = options.signers ?? [match.offered_by.owner as Member, match.wanted_by.owner as Member];
    const sign = async (owner: Member, as: { owner: string }) => ({
      owner: as.owner,
      key: this.k.owners[owner].publicKeyText,
      sig: await signStatement(this.k.owners[owner], "deal", dealStatement(room, deal)),
    });
    const signatures = [await sign(offering, match.offered_by), await sign(wanting, match.wanted_by)] as const;
    const quantity = options.quantity ?? dealQuantity(this.state.market!, match);
    return {
      table: this.state.table,
      seat: null,
      kind: "system" as const,
      subkind: "deal_recorded" as const,
      data: {
        match: seq,
        room,
        deal,
        signatures: [signatures[0], signatures[1]] as [(typeof signatures)[0], (typeof signatures)[1]],
        quantity,
      },
      author: null,
    };
  }

  /** Copies of the ledger's entries with a match the rules never made inserted right after match `seq`: a copy of it naming `wanter` as the wanting side; renumbered, not chained again. */
  withInventedMatch(seq: number, wanter: Member): Entry[] {
    const entries = structuredClone(this.l.entries) as Entry[];
    const invented = { ...structuredClone(entries[seq - 1]!), seq: seq + 1 };
    if (invented.kind !== "system" || invented.subkind !== "match") throw new Error(`entry ${seq} is not a match`);
    invented.data.wanted_by = { owner: wanter, key: this.k.owners[wanter].publicKeyText };
    entries.splice(seq, 0, invented);
    return entries.map((e, i) => ({ ...e, seq: i + 1 }));
  }

  /** The export of the whole ledger with a head over it. */
  async exportText(): Promise<string> {
    return exportText({ table: this.state.table, relay: this.k.relay.publicKeyText }, this.l.entries, [
      await this.l.head(),
    ]);
  }

  get state(): TableState {
    return this.l.state!;
  }
}
