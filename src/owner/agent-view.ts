/**
 * What a seat's agent is told of its owner's mandate (docs/ROOMS.md "What reaches the agent"), in
 * the same words on every path that feeds an agent: the MCP tools (`trestle_room_state`,
 * `trestle_mandate`), each turn of `trestle seat` (exec stdin, the A2A message) and the library's
 * driven seat (seat-driver.ts). A never_disclose string is never told, only how many there are. The
 * money cap and floor are told as amounts when the mandate's `agent_view` is `figures` (the
 * default), and under `rules` only as the rules the guard holds the agent to, with no figure; so is
 * the allowance across a market's rooms. The markets and categories it may trade in are told as they are.
 */
import { counted } from "../text/count.js";
import { majorUnits } from "../text/terms.js";
import type { MandateRead } from "./mandate.js";
import type { Mandate, MandateAllowance } from "./records.js";

/** What the mandate read as `read` lets the seat do, in sentences for its agent: never a never_disclose string, and under `agent_view: "rules"` no amount of the cap or floor. */
export function mandateLines(read: MandateRead): string[] {
  if (!read.ok) return [`No mandate in force (${read.reason}): ${read.message}.`];
  const m = read.mandate;
  return [
    `Your owner's mandate: ${moneyRule(m)}; ${counted(m.never_disclose.length, "string")} you must never write (checked before signing).`,
    ...(m.allowance ? [allowanceRule(m, m.allowance)] : []),
    ...(m.markets || m.categories
      ? [
          `Trade (list, offer, accept, bid, sign deals) only in ${m.markets ? `market ${m.markets.join(", ") || "none"}` : "any market"}${m.categories ? `, categories ${m.categories.join(", ") || "none"}` : ""}; anything else that trades is refused.`,
        ]
      : []),
    ...(m.require_confirm.length > 0 ? [`Held for your owner's approval: every ${m.require_confirm.join(", ")}.`] : []),
    ...(m.loosened
      ? ["Your owner loosened the mandate: each accept, grant and priced offer waits for their approval."]
      : []),
    ...(m.paused ? ["Your owner PAUSED this seat: it writes nothing."] : []),
  ];
}

/** The allowance rule of `m` in words: its total under `figures`, only the rule under `rules` (the count of open commitments is no amount, and is told in both). */
function allowanceRule(m: Mandate, a: MandateAllowance): string {
  const open = a.open === undefined ? "" : `, and at most ${counted(a.open, "commitment")} open at once (either side)`;
  const cap =
    m.agent_view === "rules"
      ? "your owner caps"
      : `your owner allows at most ${majorUnits(a.total, a.currency)} ${a.currency} for`;
  const kept = m.agent_view === "rules" ? " (your owner keeps the amount to themselves)" : "";
  return `Across all the rooms of a market's matches, ${cap} what you spend as the buyer in all (deals done and commitments still open)${open}; a commitment past it is refused before it is signed, and you are told when one is${kept}.`;
}

/** The money rule of `m` in words: its amounts under `figures`, only the rule under `rules`. */
function moneyRule(m: Mandate): string {
  const money = m.money;
  if (!money) return "commit no money (cap 0)";
  if (m.agent_view === "rules") {
    const outside =
      money.floor === undefined ? "above your owner's cap" : "above your owner's cap or below their floor";
    return `commit money in ${money.currency} only; an offer, counter, accept, grant or bid ${outside} is refused before it is signed, and you are told when one is (your owner keeps the amounts to themselves)`;
  }
  const floor = money.floor === undefined ? "" : `, at least ${majorUnits(money.floor, money.currency)}`;
  return `commit at most ${majorUnits(money.cap, money.currency)} ${money.currency}${floor}`;
}
