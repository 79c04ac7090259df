/**
 * Drives a market over the relay's HTTP routes (docs/SPEC.md §5.15) with the swap market's cast:
 * the creator's invites bound to members' keys, members' plain joins and listings, searches,
 * sealed bids on a listing, matches with their citations, the room of a match (created by one side, joined by the other
 * without an invite), its deal both owners sign, and the market's record of it. Any fetch
 * (SELF.fetch in workerd, or a real server).
 */
import {
  dealStatement,
  listingBidCommitment,
  signInvite,
  signJoin,
  signStatement,
  type DistributiveOmit,
  type MatchCitation,
  type Signer,
  type SubmissionInput,
  type TableConfig,
} from "../../src/protocol/index.js";
import {
  bidSalt,
  marketCast,
  marketConfig,
  type ListingInput,
  type MarketCast,
  type Member,
} from "./market-fixture.js";
import { expect201, fresh } from "./room-http.js";
import { RelayHttp, type Reply } from "./relay-http.js";
import { keyOf } from "./table-fixture.js";

/** A market on a relay: `id` is its table id; each member's seat is `<member>-bot`. */
export class MarketHttp {
  private constructor(
    readonly relay: RelayHttp,
    readonly id: string,
    readonly k: MarketCast,
  ) {}

  /** Creates the swap market as `id` (hana creating it, `cast` labelling its keys), seats hana-bot, and admits `members`. */
  static async open(
    relay: RelayHttp,
    id: string,
    options: { members?: readonly Member[]; overrides?: Partial<TableConfig>; cast?: string } = {},
  ): Promise<MarketHttp> {
    const k = await marketCast(options.cast ?? id);
    const m = new MarketHttp(relay, id, k);
    expect201(await relay.create(k.owners.hana, "hana", marketConfig(k, { id, ...options.overrides })));
    expect201(await relay.join(id, k.owners.hana, "hana", "hana-bot", await m.seatKey("hana-bot")));
    for (const member of options.members ?? []) expect201(await m.admit(member));
    return m;
  }

  seatKey(seat: string): Promise<Signer> {
    return keyOf(`seat:${this.id}:${seat}`);
  }

  /** Hana's invite bound to `member`'s key; `member` then joins `<member>-bot` on the plain join route, with no code. */
  async admit(member: Member): Promise<Reply> {
    const key = this.k.owners[member];
    const invite = fresh("invite");
    expect201(
      await this.relay.request(
        "POST",
        `/tables/${this.id}/invites`,
        await signInvite(this.k.owners.hana, {
          table: this.id,
          invite,
          expires: Date.now() + 3_600_000,
          owner_key: key.publicKeyText,
        }),
      ),
    );
    return this.joinAs(member, this.id, `${member}-bot`, { invite });
  }

  /** `member` seats `seat` at `table`: as an owner already there (`as: "owner"`), naming an invite bound to its key (`invite`), or, by default, as a newcomer with its own key and no invite (a match's other side). */
  async joinAs(
    member: Member,
    table: string,
    seat: string,
    opts: { invite?: string; as?: "owner" } = {},
  ): Promise<Reply> {
    const key = this.k.owners[member];
    const newcomer =
      opts.as === "owner" ? {} : { ...(opts.invite ? { invite: opts.invite } : {}), owner_key: key.publicKeyText };
    const request = await signJoin(
      key,
      {
        table,
        seat,
        owner: member,
        seat_key: (await this.seatKey(seat)).publicKeyText,
        human: false,
        nonce: fresh(`join:${seat}`),
        expires: Date.now() + 60_000,
        ...newcomer,
      },
      { summary: `${member}'s trading agent` },
    );
    return this.relay.request("POST", `/tables/${table}/join`, request);
  }

  /** Any submission by `seat` at `table` (default the market). */
  async write(
    seat: string,
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">,
    table = this.id,
  ): Promise<Reply> {
    return this.relay.say(table, await this.seatKey(seat), { seat, ...input } as Parameters<RelayHttp["say"]>[2]);
  }

  /** `member`'s seat lists `input` (expiring in a day unless given). */
  list(member: Member, input: ListingInput): Promise<Reply> {
    return this.write(`${member}-bot`, { kind: "listing", expires: Date.now() + 86_400_000, ...input });
  }

  /** `member`'s seat commits a sealed bid of `bid` on the listing at `listing`, salted with the fixture's bidSalt(member). */
  commitBid(member: Member, listing: string, bid: number): Promise<Reply> {
    const commitment = listingBidCommitment({ table: this.id, listing, bidder: member, bid, salt: bidSalt(member) });
    return this.write(`${member}-bot`, { kind: "bid", op: "commit", listing, commitment });
  }

  /** `member`'s seat reveals `bid` on the listing at `listing` with the fixture's bidSalt(member). */
  revealBid(member: Member, listing: string, bid: number): Promise<Reply> {
    return this.write(`${member}-bot`, { kind: "bid", op: "reveal", listing, bid, salt: bidSalt(member) });
  }

  /** A signed GET of `path` as `member` (an owner read). */
  read(member: Member, path: string, table = this.id): Promise<Reply> {
    return this.relay.read(table, path, this.k.owners[member], { owner: member });
  }

  /** GET /tables/:id/matches/:seq as `member`. */
  async citation(member: Member, seq: number): Promise<MatchCitation> {
    const reply = await this.read(member, `/tables/${this.id}/matches/${seq}`);
    if (reply.status !== 200) throw new Error(`match ${seq}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.citation;
  }

  /** `creator` (one side of match `seq`) creates its room, whose id the relay's answer for the match names. */
  async openRoom(creator: Member, seq: number): Promise<{ reply: Reply; room: string }> {
    const match = await this.read(creator, `/tables/${this.id}/matches/${seq}`);
    const room: string = match.body.room;
    const config: TableConfig = {
      id: room,
      topic: `Room for match ${seq} of ${this.id}`,
      owners: { [creator]: { public_key: this.k.owners[creator].publicKeyText } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 200 }] },
      room: { match: match.body.citation },
    };
    return { reply: await this.relay.create(this.k.owners[creator], creator, config), room };
  }

  /** `member`'s seat `seat` records its owner's signature of the deal on `offer` in `room`, whose terms hash is `deal`. */
  async signDeal(member: Member, room: string, seat: string, offer: string, deal: string): Promise<Reply> {
    const key = this.k.owners[member];
    const owner_sig = await signStatement(key, "deal", dealStatement(room, deal));
    return this.write(seat, { kind: "deal_sign", offer, deal, owner_key: key.publicKeyText, owner_sig }, room);
  }
}
