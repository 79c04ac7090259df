/**
 * A buyer's market rooms on a real relay, for the allowance tests (docs/MARKETS.md "An owner's
 * allowance"): a fresh swap market in which ana wants a stroller and each seller offers one, so each
 * seller's listing matches ana's want; each match's room is opened by its seller, who seats
 * `<seller>-bot`, and ana joins it as the match's other side with `ana-bot`. Ana's trestle home holds
 * her owner key and her seat key (one key for every table, as `trestle keygen` makes them), so
 * GuardedSeats, spawned processes and the CLI all act for her from it.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import {
  createKeyFile,
  HttpClient,
  openTable,
  ownerKeyPath,
  seatKeyPath,
  type FetchLike,
} from "../../src/client/node.js";
import { AllowanceStore, GuardedSeat, seatFiles, setMandate, type MandateFields } from "../../src/owner/index.js";
import { sha256, utf8, type Entry, type Signer } from "../../src/protocol/index.js";
import { uniqueTable } from "./client-table.js";
import { MarketHttp } from "./market-http.js";
import type { Member } from "./market-fixture.js";
import { RelayHttp } from "./relay-http.js";
import { expect201 } from "./room-http.js";
import { tempHome } from "./room-client.js";

/** Each member's seat, at the market and in every room: `<member>-bot`. */
export const seatOf = (member: Member): string => `${member}-bot`;

/** Ana's market and rooms: the market, her home and owner key, and the room of each seller's match. */
export interface MarketRooms {
  url: string;
  m: MarketHttp;
  home: string;
  ownerKey: Signer;
  rooms: Record<string, string>;
}

/** Opens the market at `url` with ana and `sellers` (default ben and chen) as members, each seller's stroller matched with ana's want, and each match's room seated. */
export async function marketRooms(url: string, sellers: readonly Member[] = ["ben", "chen"]): Promise<MarketRooms> {
  const id = uniqueTable("m-allow");
  const m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), url), id, {
    members: ["ana", ...sellers],
  });
  for (const seller of sellers)
    expect201(
      await m.list(seller, { side: "offer", title: `stroller of ${seller}`, category: "baby-gear", quantity: 1 }),
    );
  expect201(
    await m.list("ana", { side: "want", title: "stroller wanted", category: "baby-gear", quantity: sellers.length }),
  );
  const entries: Entry[] = (await m.read("hana", `/tables/${id}/entries?from=1`)).body.items;
  const rooms: Record<string, string> = {};
  for (const seller of sellers) {
    const match = entries.find(
      (e) => e.kind === "system" && e.subkind === "match" && e.data.offered_by.owner === seller,
    )!;
    const { reply, room } = await m.openRoom(seller, match.seq);
    expect201(reply);
    expect201(await m.joinAs(seller, room, seatOf(seller), { as: "owner" }));
    expect201(await m.joinAs("ana", room, seatOf("ana")));
    rooms[seller] = room;
  }
  const home = await memberHome(m, "ana");
  return { url, m, home, ownerKey: m.k.owners.ana, rooms };
}

/** A fresh trestle home for `member` of market `m`, holding its owner key and its seat's key. */
export async function memberHome(m: MarketHttp, member: Member): Promise<string> {
  const home = tempHome(member);
  await createKeyFile(ownerKeyPath(home, member), "owner", member, { seed: sha256(utf8(`${m.id}/owner:${member}`)) });
  await createKeyFile(seatKeyPath(home, seatOf(member)), "seat", seatOf(member), {
    seed: sha256(utf8(`seat:${m.id}:${seatOf(member)}`)),
  });
  return home;
}

/** `member`'s guarded seat at `table` from `home` (default ana's), its requests through `fetch` when given. */
export async function guardOf(
  f: MarketRooms,
  table: string,
  options: { member?: Member; home?: string; fetch?: FetchLike } = {},
): Promise<GuardedSeat> {
  const member = options.member ?? "ana";
  const home = options.home ?? f.home;
  const client = await openTable({
    relay: options.fetch ? new HttpClient({ url: f.url, fetch: options.fetch }) : f.url,
    table,
    home,
  });
  return new GuardedSeat({ client, seat: seatOf(member), signer: await f.m.seatKey(seatOf(member)), home });
}

/** Signs `member`'s mandate at `table` in `home` (default ana's), as limits the owner trusts (never marked loosened): money up to 1,000,000 USD cents, an allowance of 10,000 across the market's rooms, and `over`. */
export async function mandateAt(
  f: MarketRooms,
  table: string,
  over: Partial<MandateFields> = {},
  options: { member?: Member; home?: string } = {},
): Promise<void> {
  const member = options.member ?? "ana";
  const fields: MandateFields = {
    table,
    seat: seatOf(member),
    owner: member,
    money: { currency: "USD", cap: 1_000_000 },
    allowance: { currency: "USD", total: 10_000 },
    never_disclose: [],
    require_confirm: [],
    paused: false,
    ...over,
  };
  await setMandate(seatFiles(options.home ?? f.home, table, seatOf(member)).mandate, f.m.k.owners[member], fields, {
    now: Date.now(),
    clearLoosened: true,
  });
}

/** `member` (default the room's seller) writes `input` in `room` through the relay, unguarded; returns its entry's leaf. */
export async function writeIn(
  f: MarketRooms,
  member: Member,
  room: string,
  input: Parameters<MarketHttp["write"]>[1],
): Promise<string> {
  const sent = expect201(await f.m.write(seatOf(member), input, room));
  const read = await f.m.read(member, `/tables/${room}/entries?from=${sent.body.seq}&to=${sent.body.seq}`, room);
  return read.body.items[0].leaf;
}

/** `seller` offers `amount` USD cents in its room; returns the offer's leaf. */
export function sellerOffers(f: MarketRooms, seller: Member, amount: number): Promise<string> {
  return writeIn(f, seller, f.rooms[seller]!, { kind: "offer", terms: { amount, currency: "USD" } });
}

/** `member`'s allowance store in the market, in `home` (default ana's). */
export function storeOf(f: MarketRooms, member: Member = "ana", home = f.home): AllowanceStore {
  return new AllowanceStore(home, { owner: member, ownerKey: f.m.k.owners[member].publicKeyText, market: f.m.id });
}

const CHILD = fileURLToPath(new URL("./allowance-child.ts", import.meta.url));
const CHILD_BUNDLE = fileURLToPath(new URL("../../dist/test/allowance-child.mjs", import.meta.url));

/** Bundles the child process script (allowance-child.ts) and returns its path. */
export async function buildChild(): Promise<string> {
  await build({
    entryPoints: [CHILD],
    outfile: CHILD_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return CHILD_BUNDLE;
}
