/**
 * What the market scenario must show: the relay matched exactly the pairs the listings call for;
 * three rooms closed with deals at the scripted prices, both owners' signatures on each and each
 * recorded in the market with its listings' quantity closed; one room closed without a deal and
 * nothing recorded; the sealed bids sold their listing to the highest bidder at the second price,
 * and the sale's room closed with that deal, recorded; a guard refused the agent's accept under its floor in a room and a listing's
 * draft naming a never_disclose value; a buyer's allowance refused a commitment in its second room
 * and its deals stayed within it; the `rules` agent was given no figure of its owner's in any
 * turn (while a `figures` agent was given its own); no member's private figure is in any ledger;
 * and `trestle verify` found every export CLEAN.
 */
import { isEntry, parseExport } from "../protocol/index.js";
import { verdictOf } from "./checks.js";
import { statesFigure } from "./figures.js";
import { ROOMS, SEALED } from "./market-cast.js";
import type { MarketOutcome } from "./market.js";
import type { GroupsSeen } from "./market-groups.js";
import { priceWords } from "./market-room.js";

/** One check of the market scenario. */
export interface MarketCheck {
  name:
    | "matched"
    | "deals_signed"
    | "deals_recorded"
    | "no_deal"
    | "sealed_bids"
    | "guard_refused"
    | "allowance"
    | "rules_view"
    | "figures_absent"
    | "verify_clean"
    | "groups";
  ok: boolean;
  text: string;
}

/** The market scenario's checks, in order. */
export function marketChecksOf(o: MarketOutcome): MarketCheck[] {
  return [
    matched(o),
    dealsSigned(o),
    dealsRecorded(o),
    noDeal(o),
    sealedBids(o),
    guardRefused(o),
    allowance(o),
    rulesView(o),
    figuresAbsent(o),
    verifyClean(o),
    ...(o.groups ? [groups(o.groups)] : []),
  ];
}

/**
 * The chat groups: each was greeted and told the market's news, the deals among it with no price;
 * none was sent a room's id, an approval, a held message, an accept or a deal's price; every member
 * posting from a group was answered privately with an UNVERIFIED listing.
 */
function groups(seen: GroupsSeen): MarketCheck {
  const wrong: string[] = [];
  for (const g of seen.groups) {
    const text = g.messages.join("\n");
    if (g.messages.length < 2) wrong.push(`${g.platform} got ${g.messages.length} message(s)`);
    if (/mr-[0-9a-f]{8}|approv|accept|held|承認/i.test(text))
      wrong.push(`${g.platform} was sent something of a room or an approval`);
    for (const line of text.split("\n"))
      if (/Deal done|取引成立|交易完成/.test(line) && /TWD/.test(line))
        wrong.push(`${g.platform} was sent a deal's price: ${line}`);
  }
  if (!seen.groups.some((g) => g.messages.some((m) => /Deal done|取引成立|交易完成/.test(m))))
    wrong.push("no group heard of a deal");
  const unmarked = seen.replies.filter((r) => !r.includes("UNVERIFIED"));
  if (unmarked.length > 0) wrong.push(`a member's post was answered without UNVERIFIED: ${unmarked[0]}`);
  const count = seen.groups.map((g) => `${g.platform} ${g.messages.length}`).join(", ");
  return {
    name: "groups",
    ok: wrong.length === 0,
    text:
      wrong.length === 0
        ? `three chat groups were told the market's listings and deals in their languages (${count} messages), nothing of a room or an approval, no deal's price; members' posts from them were UNVERIFIED listings answered privately`
        : `the chat groups: ${wrong.join("; ")}`,
  };
}

function matched(o: MarketOutcome): MarketCheck {
  const pair = (offer: string, want: string) => `"${offer}" with "${want}"`;
  const made = o.matches.map((m) => pair(m.offer, m.want)).sort();
  const expected = ROOMS.map((r) => pair(r.offer, r.want)).sort();
  const ok = made.join("\n") === expected.join("\n");
  return {
    name: "matched",
    ok,
    text: ok
      ? `the relay matched the ${made.length} pairs the listings call for, and no other`
      : `the relay matched ${made.join("; ") || "nothing"}, not ${expected.join("; ")}`,
  };
}

/** The rooms meant to end in a deal, with how each went. */
function dealRooms(o: MarketOutcome) {
  return ROOMS.flatMap((cast) =>
    cast.ends === null ? [] : [{ cast, played: o.rooms.find((r) => r.offer === cast.offer) }],
  );
}

function dealsSigned(o: MarketOutcome): MarketCheck {
  const rooms = dealRooms(o);
  const wrong = rooms.filter(
    ({ cast, played }) => played?.outcome !== "deal" || played.price !== cast.ends || played.dealStatus !== "done",
  );
  const prices = rooms.map(({ cast }) => priceWords(cast.ends)).join(", ");
  return {
    name: "deals_signed",
    ok: wrong.length === 0,
    text:
      wrong.length === 0
        ? `${rooms.length} rooms closed with deals both owners signed (${prices})`
        : `not a deal both owners signed: ${wrong.map(({ cast, played }) => `"${cast.offer}" ended ${played?.outcome ?? "unplayed"} at ${priceWords(played?.price ?? null)}, ${played?.dealStatus ?? "unsigned"}`).join("; ")}`,
  };
}

function dealsRecorded(o: MarketOutcome): MarketCheck {
  const rooms = dealRooms(o);
  const unrecorded = rooms.filter(({ played }) => played?.recorded == null);
  const traded = new Set(rooms.flatMap(({ cast }) => [cast.offer, cast.want]));
  const unclosed = o.listings.filter(
    (l) => traded.has(l.title) && (l.closed !== 1 || l.status !== (l.quantity === 1 ? "filled" : "open")),
  );
  const filled = o.listings.filter((l) => l.status === "filled").length;
  const ok = unrecorded.length === 0 && unclosed.length === 0;
  return {
    name: "deals_recorded",
    ok,
    text: ok
      ? `the market recorded each deal and closed its quantity: ${filled} listings filled, the others' quantity left`
      : `not recorded: ${unrecorded.map(({ cast }) => `"${cast.offer}"`).join(", ") || "none"}; quantity not closed: ${unclosed.map((l) => `"${l.title}" (${l.status}, ${l.closed} closed)`).join(", ") || "none"}`,
  };
}

function noDeal(o: MarketOutcome): MarketCheck {
  const cast = ROOMS.find((r) => r.ends === null)!;
  const played = o.rooms.find((r) => r.offer === cast.offer);
  const ok = played?.outcome === "no_deal" && played.recorded === null && played.dealStatus === null;
  return {
    name: "no_deal",
    ok,
    text: ok
      ? `the room for "${cast.offer}" closed without a deal, and the market recorded nothing for it`
      : `the room for "${cast.offer}" ended ${played?.outcome ?? "unplayed"}`,
  };
}

function sealedBids(o: MarketOutcome): MarketCheck {
  const room = o.rooms.find((r) => r.offer === SEALED.title);
  const listing = o.listings.find((l) => l.title === SEALED.title);
  const sold = o.sealed.outcome === "sold" && o.sealed.winner === SEALED.winner && o.sealed.price === SEALED.price;
  const dealt =
    room?.outcome === "deal" &&
    room.price === SEALED.price &&
    room.dealStatus === "done" &&
    room.recorded !== null &&
    listing?.status === "filled";
  return {
    name: "sealed_bids",
    ok: sold && dealt,
    text:
      sold && dealt
        ? `the sealed bids sold "${SEALED.title}" to ${SEALED.winner} at the second price, ${priceWords(SEALED.price)}; the sale's room closed with the deal both owners signed, recorded, the listing filled`
        : `the sealed bids: ${o.sealed.outcome} to ${o.sealed.winner ?? "nobody"} at ${priceWords(o.sealed.price)}; the sale's room ${room ? `ended ${room.outcome ?? "open"} at ${priceWords(room.price)}, ${room.dealStatus ?? "unsigned"}, ${room.recorded === null ? "not recorded" : "recorded"}` : "was not played"}; the listing ${listing?.status ?? "is missing"}`,
  };
}

function guardRefused(o: MarketOutcome): MarketCheck {
  const inRoom = o.rooms
    .flatMap((r) => r.refusals)
    .find((r) => r.owner === o.rulesView && r.kind === "accept" && r.reason === "floor");
  const listing = o.refusals.find((r) => r.kind === "listing" && r.reason === "disclose");
  const ok = inRoom !== undefined && listing !== undefined;
  return {
    name: "guard_refused",
    ok,
    text: ok
      ? `guards refused before signing: the accept ${o.rulesView}'s agent tried below ${o.rulesView}'s floor, and ${listing.owner}'s listing text naming ${listing.owner}'s floor`
      : `a refusal is missing: ${inRoom ? "" : `${o.rulesView}'s accept under the floor was not refused; `}${listing ? "" : "no listing draft was refused"}`,
  };
}

function allowance(o: MarketOutcome): MarketCheck {
  const figure = o.figures.find((f) => f.what === "allowance");
  const bought = o.rooms.filter((r) => r.buyer === figure?.owner && r.outcome === "deal");
  const spent = bought.reduce((sum, r) => sum + (r.price ?? 0), 0);
  const refused = o.rooms.flatMap((r) => r.refusals).find((r) => r.owner === figure?.owner && r.reason === "allowance");
  const ok = figure !== undefined && refused !== undefined && bought.length > 1 && spent <= figure.amount;
  return {
    name: "allowance",
    ok,
    text: ok
      ? `${figure.owner}'s allowance across ${figure.owner}'s rooms refused the ${refused.kind} that would have passed it, before signing; the ${bought.length} deals came to ${priceWords(spent)}, within it`
      : `${figure?.owner ?? "no one"}'s allowance: ${refused ? "a refusal" : "no refusal"}, ${bought.length} deals for ${priceWords(spent)} against ${priceWords(figure?.amount ?? null)}`,
  };
}

function rulesView(o: MarketOutcome): MarketCheck {
  const figure = o.figures.find((f) => f.owner === o.rulesView)!;
  const room = o.rooms.find((r) => r.seller === o.rulesView || r.buyer === o.rulesView);
  const turns = room ? (room.seller === o.rulesView ? room.turns.seller : room.turns.buyer) : [];
  const told = turns.filter((turn) => statesFigure(turn, figure)).length;
  const other = room
    ? room.seller === o.rulesView
      ? { owner: room.buyer, turns: room.turns.buyer }
      : { owner: room.seller, turns: room.turns.seller }
    : null;
  const otherFigure = o.figures.find((f) => f.owner === other?.owner && f.what !== "allowance");
  const otherTold =
    other && otherFigure ? other.turns.filter((turn) => statesFigure(turn.mandate, otherFigure)).length : 0;
  const ok = turns.length > 0 && told === 0 && other !== null && otherTold === other.turns.length && otherTold > 0;
  return {
    name: "rules_view",
    ok,
    text: ok
      ? `${o.rulesView}'s agent (agent_view rules) was given ${turns.length} turns, none with ${o.rulesView}'s ${figure.what} in any form; ${other!.owner}'s (figures) was told ${other!.owner}'s ${otherFigure!.what} in each of its ${otherTold}`
      : `${o.rulesView}'s agent was given ${o.rulesView}'s ${figure.what} in ${told} of ${turns.length} turns; ${other?.owner ?? "the other side"}'s was told its own in ${otherTold} of ${other?.turns.length ?? 0}`,
  };
}

function figuresAbsent(o: MarketOutcome): MarketCheck {
  const ledgers = o.exports.map((x) => {
    const parsed = parseExport(x.text);
    return { table: x.table, entries: parsed.ok ? parsed.view.items.filter(isEntry) : [x.text] };
  });
  const found = ledgers.flatMap((l) =>
    o.figures.filter((f) => statesFigure(l.entries, f)).map((f) => `${f.owner}'s ${f.what} in ${l.table}`),
  );
  const entries = ledgers.reduce((n, l) => n + l.entries.length, 0);
  return {
    name: "figures_absent",
    ok: found.length === 0,
    text:
      found.length === 0
        ? `no member's private floor, cap or allowance is in any ledger, in any form (${ledgers.length} ledgers, ${entries} entries)`
        : `a private figure is in a ledger: ${found.join("; ")}`,
  };
}

function verifyClean(o: MarketOutcome): MarketCheck {
  const bad = o.exports.filter((x) => verdictOf(x) !== "CLEAN" || x.verify.code !== 0);
  return {
    name: "verify_clean",
    ok: bad.length === 0 && o.exports.length === o.rooms.length + 1,
    text:
      bad.length === 0
        ? `trestle verify: CLEAN on the market's export and on each of the ${o.rooms.length} rooms' (exit 0)`
        : `trestle verify: ${bad.map((x) => `${x.table} ${verdictOf(x) || "no verdict"} (exit ${x.verify.code})`).join("; ")}`,
  };
}
