/**
 * The market scenario (`npm run demo -- market`, docs/MARKETS.md): five parents on five machines
 * and a dozen items of used baby gear. hana creates the market (`trestle market create`) and
 * admits the four others by their owner keys (no code passes by hand); each member signs its
 * market seat's mandate (ana's under agent_view `rules`); the sellers' agents list offers (chen's
 * first draft names his floor and his guard refuses it before signing), then the buyers' agents
 * list wants and the relay matches them at once. Each match's room is opened by one side and
 * joined by the other (ben opens the first with `trestle market room`), where the scripted agents
 * negotiate under the carried mandates (market-room.ts): the stroller's seller agent, which never
 * knows its floor, tries an accept under it and the guard refuses; ben buys in two rooms under one
 * allowance, which refuses his agent's accept in the second (`trestle allowance reconcile` then
 * shows what his deals spent); three rooms end in deals both owners sign and the market records
 * (listings filled), one ends without a deal. dara's cot takes sealed bids instead: ben's and
 * hana's agents commit theirs as soon as it is listed and reveal them once bidding has closed
 * (market-sealed.ts), and the sale's room closes at the second price. Then every ledger is exported
 * and checked with `trestle verify`. On a relay whose chat apps are the demo's stand-in, hana first
 * binds a Telegram, a LINE and a Discord group, which hear the market's news throughout, and at the
 * end three members post from them (market-groups.ts). Returns what the checks need.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes, type TableClient } from "../client/node.js";
import { issueInvite, listingEntry, marketState, readTranscript, type GuardedSeat } from "../owner/index.js";
import { toHex, TrestleError, type ListingStatus } from "../protocol/index.js";
import { majorUnits } from "../text/terms.js";
import { DemoError } from "./errors.js";
import {
  CATEGORIES,
  MANDATES,
  MEMBERS,
  OFFERS,
  ROOMS,
  SALE_ROOM,
  SEALED,
  SELLER_CAP,
  WANTS,
  secretOf,
  type CastListing,
  type Member,
  type PrivateFigure,
} from "./market-cast.js";
import { marketSeat, memberMachine, tableAt, type MemberMachine } from "./market-member.js";
import { playMatchRoom, type GuardRefusal, type PlayedRoom } from "./market-room.js";
import { commitBids, revealBids, type SealedSale } from "./market-sealed.js";
import { bindDemoGroups, groupsCoda, type GroupsSeen } from "./market-groups.js";
import { signSeatMandate } from "./owner-files.js";
import { shortPath } from "./paths.js";
import type { ScenarioOptions } from "./scenario-options.js";
import { ShownLedger } from "./shown-ledger.js";
import { trestleCli, type CliRun } from "./trestle-cli.js";
import type { Transcript } from "./transcript.js";

/** A listing as the market's verified fold holds it at the end. */
export interface ListingEnd {
  owner: string;
  side: string;
  title: string;
  status: ListingStatus;
  quantity: number;
  closed: number;
}

/** One ledger the demo exported and checked with `trestle verify`. */
export interface VerifiedExport {
  table: string;
  path: string;
  text: string;
  verify: { code: number | null; stdout: string };
}

/** What the market scenario produced, for the checks. */
export interface MarketOutcome {
  market: string;
  /** Each match as offer title and want title, in ledger order. */
  matches: { seq: number; offer: string; want: string }[];
  listings: ListingEnd[];
  /** The rooms of the matches by words, then the sale's. */
  rooms: PlayedRoom[];
  /** How the sealed bids settled. */
  sealed: SealedSale;
  /** Guard refusals outside the rooms (a listing's draft). */
  refusals: readonly GuardRefusal[];
  /** The market's export first, then each room's. */
  exports: VerifiedExport[];
  figures: PrivateFigure[];
  /** The member whose seat's agent works under agent_view `rules`. */
  rulesView: Member;
  /** What the market's chat groups were sent, when the relay's chat apps were the demo's stand-in; else null. */
  groups: GroupsSeen | null;
}

/** Plays the market; throws DemoError when a step the story needs does not happen. */
export async function playMarket(o: ScenarioOptions): Promise<MarketOutcome> {
  const t = o.transcript;
  const market = `m-swap-${toHex(randomBytes(3))}`;
  const machines = Object.fromEntries(
    await Promise.all(MEMBERS.map(async (name) => [name, await memberMachine(o.work, name)] as const)),
  ) as Record<Member, MemberMachine>;
  const cli = (m: MemberMachine, args: readonly string[]): Promise<CliRun> =>
    trestleCli(o.root, m.home, o.relay.url)(args);
  const hana = machines.hana;

  t.section("hana opens the market on her machine");
  const createArgs = [
    "market",
    "create",
    "--table",
    market,
    "--owner",
    "hana",
    "--topic",
    "Parents' swap: used baby gear",
    "--categories",
    CATEGORIES.join(","),
    "--listings-per-member",
    "5",
  ];
  const created = await t.command(createArgs, () => cli(hana, createArgs), {
    note: "hana's owner key signs its config: she is its creator",
    maxLines: 1,
  });
  if (created.code !== 0) throw new DemoError(`trestle market create exited ${created.code}: ${created.stderr.trim()}`);
  const clients = {} as Record<Member, TableClient>;
  clients.hana = await tableAt(hana, o.relay, market);
  await clients.hana.join(hana.owner.signer, {
    seat: hana.seat,
    owner: "hana",
    seatKey: hana.seatKey.signer.publicKeyText,
    card: { summary: "hana's agent" },
    expires: Date.now() + 600_000,
  });
  const ledger = new ShownLedger(clients.hana, hana.reader);
  await ledger.show(t, (e) =>
    e.kind === "system" && e.subkind === "table_opened"
      ? "a market is a table: one signed, verifiable ledger"
      : undefined,
  );

  t.section("hana admits four members by their owner keys: no code passes by hand");
  const [first, ...others] = MEMBERS.filter((n) => n !== "hana");
  for (const name of [first!, ...others]) {
    const m = machines[name];
    const key = m.owner.signer.publicKeyText;
    const shown = name === first;
    let invite: string;
    if (shown) {
      // One key in 64 starts with "-", which would read as a flag after a bare --key.
      const args = ["market", "admit", "--table", market, "--owner", "hana", `--key=${key}`];
      const admitted = await t.command(args, () => cli(hana, args), {
        note: `an invite only ${name}'s owner key can use`,
        maxLines: 2,
      });
      const named = /^invite (\S+) \(entry #/m.exec(admitted.stdout)?.[1];
      if (admitted.code !== 0 || named === undefined)
        throw new DemoError(`trestle market admit exited ${admitted.code}: ${admitted.stderr.trim()}`);
      invite = named;
    } else {
      invite = (await issueInvite(clients.hana, hana.owner.signer, { ttlMs: 3_600_000, ownerKey: key })).invite;
    }
    await ledger.show(t, () => (shown ? undefined : null));
    clients[name] = await tableAt(m, o.relay, market);
    if (shown)
      t.say(
        `${name}'s client signs the join with ${name}'s owner key, naming the invite (as trestle market join --invite … does)`,
      );
    await clients[name].join(m.owner.signer, {
      seat: m.seat,
      owner: name,
      seatKey: m.seatKey.signer.publicKeyText,
      card: { summary: `${name}'s agent` },
      expires: Date.now() + 600_000,
      newcomer: { invite },
    });
    await ledger.show(t, () => (shown ? "admitted by key, joined with no code" : null));
  }
  t.say(`${others.join(", ")}: admitted and joined the same way (their entries abridged)`);

  if (o.chats) await bindDemoGroups(t, o.chats, market, (args) => cli(hana, args));

  t.section("each member signs its market seat's mandate on its own machine");
  for (const name of MEMBERS) {
    const m = machines[name];
    const { figure, allowance, agentView } = MANDATES[name];
    const money =
      figure.what === "floor"
        ? { currency: "TWD" as const, cap: SELLER_CAP, floor: figure.amount }
        : { currency: "TWD" as const, cap: figure.amount };
    await signSeatMandate(m.home, m.owner, market, m.seat, {
      money,
      never_disclose: [figure, ...(allowance ? [allowance] : [])].map(secretOf),
      ...(allowance ? { allowance: { currency: "TWD" as const, total: allowance.amount } } : {}),
      ...(agentView ? { agent_view: agentView } : {}),
    });
    const twd = (f: PrivateFigure) => `${majorUnits(f.amount, "TWD")} TWD`;
    const limit =
      figure.what === "floor"
        ? `sell for no less than ${twd(figure)}`
        : `pay at most ${twd(figure)} a deal${allowance ? `, ${twd(allowance)} in all across the market's rooms (an allowance)` : ""}`;
    const note = agentView
      ? `${name}'s agent is told the rule, never the figure`
      : allowance
        ? "one allowance for every room his seat enters"
        : undefined;
    t.say(`${name}: ${limit}; private, never written in any form${agentView ? `; agent_view ${agentView}` : ""}`, note);
  }

  t.section("the sellers' agents list offers: a public price range, or none (ask)");
  const seats = Object.fromEntries(MEMBERS.map((name) => [name, marketSeat(machines[name], clients[name])])) as Record<
    Member,
    GuardedSeat
  >;
  const refusals: GuardRefusal[] = [];
  let sealed: { leaf: string; until: number } | null = null;
  for (const listing of OFFERS) {
    if (listing.draft !== undefined) refusals.push(await refusedDraft(t, seats[listing.owner], listing, listing.draft));
    const until = listing.sealed ? Date.now() + SEALED.windowMs : undefined;
    const leaf = await list(seats[listing.owner], listing, listing.text, until);
    await ledger.show(t, (e) => (e.kind === "listing" ? listing.note : undefined));
    if (until === undefined) continue;
    sealed = { leaf, until };
    await commitBids(t, seats, ledger, leaf);
  }
  if (sealed === null) throw new DemoError("no listing of the cast takes sealed bids");

  t.section("the buyers' agents list wants; the relay matches them at once");
  for (const listing of WANTS) {
    await list(seats[listing.owner], listing);
    await ledger.show(t, (e) =>
      e.kind === "listing"
        ? listing.note
        : e.kind === "system" && e.subkind === "match"
          ? "in the listing's own write: both agents hear of it at once"
          : undefined,
    );
  }
  const matchesArgs = ["market", "matches", "--table", market, "--owner", "ben"];
  await t.command(matchesArgs, () => cli(machines.ben, matchesArgs), {
    note: "ben's matches, read from the verified ledger",
  });

  const rooms: PlayedRoom[] = [];
  const matches = matchesOf(await readTranscript(clients.hana, hana.reader));
  for (const [i, cast] of ROOMS.entries()) {
    const match = matches.find((m) => m.offer === cast.offer && m.want === cast.want);
    if (!match) throw new DemoError(`the market did not match "${cast.offer}" with "${cast.want}"`);
    const seller = machines[OFFERS.find((l) => l.title === cast.offer)!.owner];
    const buyer = machines[WANTS.find((l) => l.title === cast.want)!.owner];
    t.section(
      `room ${i + 1} of ${ROOMS.length + 1}, for match #${match.seq}: ${seller.name}'s "${cast.offer}", ${buyer.name}'s "${cast.want}"`,
    );
    const played = await playMatchRoom(t, {
      relay: o.relay,
      market,
      match: match.seq,
      cast,
      seller,
      buyer,
      full: i === 0,
      ...(i === 0 ? { openWithCli: cli, signWithCli: cli } : {}),
    });
    rooms.push(played);
    await ledger.show(t, (e) =>
      e.kind === "system" && e.subkind === "deal_recorded"
        ? "the market records it: the price stays in the room"
        : undefined,
    );
  }

  const seller = machines[OFFERS.find((l) => l.sealed)!.owner];
  t.section(
    `the sealed bids on ${seller.name}'s "${SEALED.title}": revealed once bidding closed, settled by the second price`,
  );
  const sale = await revealBids(t, seats, ledger, sealed.leaf, sealed.until);
  if (sale.match === null) throw new DemoError(`the sealed bids on "${SEALED.title}" made no sale (${sale.outcome})`);
  t.section(
    `room ${ROOMS.length + 1} of ${ROOMS.length + 1}, for the sale #${sale.match}: ${seller.name}'s "${SEALED.title}" to ${SEALED.winner}`,
  );
  t.say(
    `in the sale's room an offer or counter may state only ${majorUnits(SEALED.price, "TWD")} TWD, the price the bids set`,
    "the room's config cites the sale",
  );
  rooms.push(
    await playMatchRoom(t, {
      relay: o.relay,
      market,
      match: sale.match,
      cast: SALE_ROOM,
      seller,
      buyer: machines[SEALED.winner],
      full: false,
    }),
  );
  await ledger.show(t, () => undefined);

  const buyer = MEMBERS.find((name) => MANDATES[name].allowance)!;
  t.section(`the market afterwards: listings filled by the deals, and ${buyer}'s allowance`);
  const end = marketState(await readTranscript(clients.hana, hana.reader));
  const listings = Object.values(end.market.listings).map((l) => ({
    owner: l.owner,
    side: l.side,
    title: l.title,
    status: l.status,
    quantity: l.quantity,
    closed: l.closed,
  }));
  for (const l of listings.filter((x) => x.closed > 0))
    t.say(
      `${l.owner}'s ${l.side} "${l.title}": ${l.status === "filled" ? "filled" : `${l.quantity - l.closed} of ${l.quantity} left`}`,
    );
  t.say(`${listings.filter((l) => l.closed === 0).length} other listings stay open (no match, or no deal)`);
  const allowanceArgs = ["allowance", "reconcile", "--owner", buyer, "--market", market];
  await t.command(allowanceArgs, () => cli(machines[buyer], allowanceArgs), {
    note: `${buyer}'s allowance, from his rooms' verified ledgers`,
  });

  t.section("exports, and trestle verify on the market and on every room");
  mkdirSync(o.outDir, { recursive: true });
  const exports: VerifiedExport[] = [];
  const ledgers = [
    { table: market, text: (await clients.hana.exportLedger(hana.reader)).text },
    ...rooms.map((r) => ({ table: r.room, text: r.exportText })),
  ];
  // The five checks run side by side (each a `trestle` process of its own), and print in order.
  const runs = ledgers.map(({ table, text }) => {
    const path = join(o.outDir, `${table}.jsonl`);
    writeFileSync(path, text);
    const args = ["verify", shortPath(path)];
    return { table, path, text, args, run: cli(hana, args) };
  });
  for (const { table, path, text, args, run } of runs) {
    const verified = await t.command(args, () => run, {
      maxLines: 1,
      ...(table === market ? { note: "every match recomputed from the listings" } : {}),
    });
    exports.push({ table, path, text, verify: { code: verified.code, stdout: verified.stdout } });
  }
  const groups = o.chats ? await groupsCoda(t, o.chats, machines, cli) : null;
  return {
    market,
    matches,
    listings,
    rooms,
    sealed: sale,
    refusals,
    exports,
    figures: MEMBERS.flatMap((name) => [
      MANDATES[name].figure,
      ...(MANDATES[name].allowance ? [MANDATES[name].allowance!] : []),
    ]),
    rulesView: MEMBERS.find((name) => MANDATES[name].agentView === "rules")!,
    groups,
  };
}

/** Writes `listing` through its member's market seat (with `text`; for sealed bids until `until`, revealed within ten minutes after); returns its entry's leaf. */
async function list(seat: GuardedSeat, listing: CastListing, text = listing.text, until?: number): Promise<string> {
  const sent = await seat.send({
    kind: "listing",
    side: listing.side,
    title: listing.title,
    category: listing.category,
    quantity: listing.quantity ?? 1,
    expires: Date.now() + 3_600_000,
    ...(text === undefined ? {} : { text }),
    ...(listing.price ? { price: listing.price } : {}),
    ...(until === undefined ? {} : { sealed: { until, reveal_until: until + 600_000 } }),
  });
  return listingEntry(await seat.transcript(), sent.seq).leaf;
}

/** A member's agent drafts `listing` with the text `draft`, which names its owner's private figure; the owner's guard must refuse it before signing. */
async function refusedDraft(
  t: Transcript,
  seat: GuardedSeat,
  listing: CastListing,
  draft: string,
): Promise<GuardRefusal> {
  t.say(`${seat.seat} drafts its listing "${listing.title}" with the text "${draft}"`);
  try {
    await list(seat, listing, draft);
  } catch (error) {
    if (!(error instanceof TrestleError) || error.code !== "E_MANDATE") throw error;
    const reason = String(error.details?.reason);
    t.say(
      `  refused on ${listing.owner}'s machine before signing: ${error.code} (${reason}): ${error.message}`,
      "the leak gate reads a listing like any message",
    );
    return { owner: listing.owner, table: seat.table, kind: "listing", reason, message: error.message };
  }
  throw new DemoError(`${listing.owner}'s guard let ${seat.seat} list its owner's figure`);
}

/** The market's matches as offer and want titles, in ledger order, from its verified transcript. */
function matchesOf(transcript: Awaited<ReturnType<typeof readTranscript>>): MarketOutcome["matches"] {
  const { market } = marketState(transcript);
  const title = (leaf: string) => market.listings[leaf]?.title ?? "?";
  return Object.entries(market.matches).map(([seq, m]) => ({
    seq: Number(seq),
    offer: title(m.offer),
    want: title(m.want),
  }));
}
