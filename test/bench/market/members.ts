/**
 * The market bench's people, each on a machine of their own as far as trestle can tell (a trestle
 * home each: owner key, seat key, pins, heads, mandates, journals, allowance store): the market's
 * host creates it and admits every member by an invite bound to their owner key; each member joins
 * with its own key and no code, signs its market seat's mandate (money cap, never_disclose, the
 * standing rule to sign deals within it, this market only, and for buyers an allowance across the
 * market's rooms), and writes through its GuardedSeat over the seat's socket, judged by the seat's
 * live transcript (decision 0495).
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import {
  createKeyFile,
  marketConfigFor,
  openTable,
  ownerKeyPath,
  seatKeyPath,
  type TableClient,
} from "../../../src/client/node.js";
import {
  GuardedSeat,
  issueInvite,
  LiveTranscript,
  seatFiles,
  setMandate,
  type Sent,
  type Transcript,
} from "../../../src/owner/index.js";
import { sha256, utf8, type Entry, type HiddenEntry, type Signer } from "../../../src/protocol/index.js";
import type { SeatSubmission } from "../../../src/client/node.js";
import { allowanceOf, capOf, CATEGORIES, secretsOf, type Style, type World } from "./scenario.js";
import type { Verifying } from "./verifying.js";

/** What an agent in the bench runs on: a relay and a place for homes. */
export interface Place {
  url: string;
  dir: string;
  /** Called with every market entry a member's socket receives, when it arrives (the fan-out figure). */
  onMarketArrival?(owner: string, items: readonly (Entry | HiddenEntry)[], at: number): void;
  /** How the agents verify what their sockets bring (verifying.ts). */
  verifying: Verifying;
}

/** A seat an agent writes through: its guarded seat, judging by and writing over the seat's live transcript (its socket). */
export class AgentSeat {
  private constructor(
    readonly guarded: GuardedSeat,
    private readonly live: LiveTranscript,
  ) {}

  /** `seat` (key `signer`) at `client`'s table, from `home`, its socket open, verifying as `verifying` says. */
  static async open(
    client: TableClient,
    seat: string,
    signer: Signer,
    home: string,
    verifying: Verifying,
    onArrival?: LiveTranscriptArrival,
  ): Promise<AgentSeat> {
    const live = await LiveTranscript.open({ client, seat, signer, ...verifying, ...(onArrival ? { onArrival } : {}) });
    return new AgentSeat(new GuardedSeat({ client, seat, signer, home, live }), live);
  }

  /** The verified transcript the agent decides by. */
  transcript(): Promise<Transcript> {
    return this.guarded.transcript();
  }

  /** Writes `input` through the guards. */
  send(input: SeatSubmission): Promise<Sent> {
    return this.guarded.send(input);
  }

  /** Waits until an entry after `seq` reached the seat. */
  after(seq: number): Promise<void> {
    return this.live.after(seq);
  }

  /** Closes the seat's socket. */
  close(): void {
    this.live.close();
  }
}

type LiveTranscriptArrival = (items: readonly (Entry | HiddenEntry)[], at: number) => void;

/** A member of the market: its name and style, home, owner key and market seat, and how its agent verifies. */
export interface Member {
  name: string;
  style: Style;
  home: string;
  owner: Signer;
  seat: string;
  seatKey: Signer;
  market: TableClient;
  marketSeat: AgentSeat;
  verifying: Verifying;
}

/** The market: its id, its host (who created it), and its members by name. */
export interface Market {
  id: string;
  host: { home: string; owner: Signer; client: TableClient };
  members: Map<string, Member>;
}

/** A home with an owner key and a seat key drawn from `label` (so a run is repeatable), and its keys. */
async function home(
  place: Place,
  name: string,
  label: string,
): Promise<{ home: string; owner: Signer; seat: string; seatKey: Signer }> {
  const dir = mkdtempSync(join(place.dir, `${name}-`));
  const seat = `${name}-bot`;
  const owner = await createKeyFile(ownerKeyPath(dir, name), "owner", name, {
    seed: sha256(utf8(`${label}/owner:${name}`)),
  });
  const seatKey = await createKeyFile(seatKeyPath(dir, seat), "seat", seat, {
    seed: sha256(utf8(`${label}/seat:${seat}`)),
  });
  return { home: dir, owner: owner.signer, seat, seatKey: seatKey.signer };
}

/**
 * Opens market `id` hosted by `host`, admits every owner of `world` by key, seats each member's
 * market seat, and signs its mandate: cap twice its highest value, never_disclose every value of
 * its own, the standing rule to sign deals within the mandate, this market only, and an allowance
 * of `allowanceShare` of what it would pay at most for all it wants, with at most 8 open at once.
 */
export async function openMarket(place: Place, world: World, id: string, allowanceShare: number): Promise<Market> {
  const host = await home(place, "host", id);
  const client = await openTable({ relay: place.url, table: id, home: host.home });
  const config = marketConfigFor({
    id,
    topic: "Neighbourhood swap (bench)",
    owner: "host",
    ownerKey: host.owner.publicKeyText,
    categories: [...CATEGORIES],
    listingTtlMs: 86_400_000,
    listingsPerMember: 60,
  });
  await client.create(host.owner, "host", config);
  const members = new Map<string, Member>();
  await inBatches(world.owners, 8, async ({ name, style }) => {
    const made = await home(place, name, id);
    const { invite } = await issueInvite(client, host.owner, { ttlMs: 3_600_000, ownerKey: made.owner.publicKeyText });
    const market = await openTable({ relay: place.url, table: id, home: made.home });
    await market.join(made.owner, {
      seat: made.seat,
      owner: name,
      seatKey: made.seatKey.publicKeyText,
      card: { summary: `${name}'s trading agent` },
      expires: Date.now() + 600_000,
      newcomer: { invite },
    });
    await setMandate(
      seatFiles(made.home, id, made.seat).mandate,
      made.owner,
      {
        table: id,
        seat: made.seat,
        owner: name,
        money: { currency: "USD", cap: capOf(world, name) },
        never_disclose: secretsOf(world, name),
        require_confirm: [],
        paused: false,
        sign_deals: "within_mandate",
        allowance: { currency: "USD", total: allowanceOf(world, name, allowanceShare), open: 8 },
        markets: [id],
      },
      { now: Date.now(), clearLoosened: true },
    );
    const arrival: LiveTranscriptArrival | undefined = place.onMarketArrival
      ? (items, at) => place.onMarketArrival!(name, items, at)
      : undefined;
    const marketSeat = await AgentSeat.open(market, made.seat, made.seatKey, made.home, place.verifying, arrival);
    members.set(name, {
      name,
      style,
      home: made.home,
      owner: made.owner,
      seat: made.seat,
      seatKey: made.seatKey,
      market,
      marketSeat,
      verifying: place.verifying,
    });
  });
  return { id, host: { home: host.home, owner: host.owner, client }, members };
}

/** Runs `work` over `items`, at most `width` at a time; the first failure rejects once the rest settled. */
export async function inBatches<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        await work(items[i]!, i);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  if (errors.length > 0) throw errors[0];
}
