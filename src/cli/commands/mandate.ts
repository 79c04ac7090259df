/**
 * `trestle mandate show|set` (docs/ROOMS.md): the owner signs a seat's mandate with the owner key
 * on this machine (money cap, floor and currency in minor units, never_disclose strings and
 * secret_amount, require_confirm kinds, paused, what the agent is told of the cap and floor, the
 * allowance across a market's rooms and the markets and categories it may trade in), and
 * reads back the one in force, judged as the guards judge it: with the seat's key alone as its agent
 * is told it (never a never_disclose string; under agent_view `rules` no amount of the cap or
 * floor), and whole with the owner key that signed it.
 */
import {
  mandateLines,
  readMandate,
  readTranscript,
  seatFiles,
  seatOwnerKey,
  setMandate,
  type Mandate,
} from "../../owner/index.js";
import { TrestleError } from "../../protocol/index.js";
import { counted } from "../../text/count.js";
import { OWNER_FLAGS, optional, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import {
  agentView,
  confirmKinds,
  mandateAllowance,
  mandateCategories,
  mandateMarkets,
  mandateMoney,
  neverDisclose,
  secretAmount,
} from "../mandate-flags.js";
import { money, unrefuted } from "../room.js";
import type { Command } from "./command.js";

/** `mandate set`: signs and writes the seat's mandate (marked loosened when looser than the one it replaces). */
export const mandateSet: Command = {
  name: "mandate set",
  summary: "sign a seat's mandate with your owner key (what it may commit to and must not say)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    seat: { type: "string", value: "NAME", help: "the seat the mandate is for (default $TRESTLE_SEAT)" },
    currency: { type: "string", value: "CODE", help: "the currency of --cap and --floor (ISO 4217)" },
    cap: { type: "string", value: "N", help: "the most the seat may commit to, in minor units (without it: cap 0)" },
    floor: { type: "string", value: "N", help: "the least the seat may commit to, in minor units" },
    "never-disclose": {
      type: "string",
      multiple: true,
      value: "TEXT",
      help: "a string the seat must never write, in any field (repeatable)",
    },
    "require-confirm": {
      type: "string",
      multiple: true,
      value: "KIND",
      help: "a kind held until you approve each message, e.g. accept (repeatable)",
    },
    "secret-amount": {
      type: "string",
      value: "refuse|allow",
      help: "an amount equal to a --never-disclose number: refuse it (default) or allow it",
    },
    paused: { type: "boolean", help: "the seat writes nothing" },
    allowance: {
      type: "string",
      value: "N",
      help: "in a market's match rooms: the most your seats spend and hold reserved as buyers across all of that market's rooms, in minor units of --currency",
    },
    "allowance-open": {
      type: "string",
      value: "N",
      help: "with --allowance: the most commitments open at once across that market's rooms (either side)",
    },
    market: {
      type: "string",
      multiple: true,
      value: "ID",
      help: "a market the seat may trade in (its listings, its matches' rooms); repeatable; without it, any",
    },
    category: {
      type: "string",
      multiple: true,
      value: "NAME",
      help: "a category the seat may list and trade in; repeatable; without it, any",
    },
    "agent-view": {
      type: "string",
      value: "figures|rules",
      help: "what the seat's agent is told of --cap and --floor: the figures (default), or only the rules, the amounts kept from it",
    },
    "sign-deals": {
      type: "boolean",
      help: "standing rule: your client signs, with your owner key in this home, each deal of this seat whose final terms this mandate allows",
    },
    "clear-loosened": {
      type: "boolean",
      help: "trust the new limits as they are: no more per-message approvals for having loosened them",
    },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const seat = optional(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
    if (seat === undefined) throw new UsageError("--seat is required (or set TRESTLE_SEAT)");
    const limits = mandateMoney(ctx.args);
    const allowance = mandateAllowance(ctx.args, limits);
    const markets = mandateMarkets(ctx.args);
    const categories = mandateCategories(ctx.args);
    const never_disclose = neverDisclose(ctx.args);
    const require_confirm = confirmKinds(ctx.args);
    const secret_amount = secretAmount(ctx.args);
    const agent_view = agentView(ctx.args);
    const { owner, key } = await ctx.owner();
    const file = await setMandate(
      seatFiles(ctx.home, table, seat).mandate,
      key.signer,
      {
        table,
        seat,
        owner,
        ...(limits === undefined ? {} : { money: limits }),
        never_disclose,
        ...(secret_amount === undefined ? {} : { secret_amount }),
        require_confirm,
        paused: ctx.args.values.paused === true,
        ...(ctx.args.values["sign-deals"] === true ? { sign_deals: "within_mandate" as const } : {}),
        ...(agent_view === undefined ? {} : { agent_view }),
        ...(allowance === undefined ? {} : { allowance }),
        ...(markets === undefined ? {} : { markets }),
        ...(categories === undefined ? {} : { categories }),
      },
      { now: ctx.io.clock(), clearLoosened: ctx.args.values["clear-loosened"] === true },
    );
    const m = file.mandate;
    const loose = m.loosened
      ? ctx.out.c.yellow(
          " (loosened: each accept, grant and priced offer now needs your approval; --clear-loosened trusts it)",
        )
      : "";
    ctx.out.result(`signed the mandate of ${seat} at ${table}: ${describe(m)}${loose}`, file);
  },
};

/** `mandate show`: the seat's mandate as the guards judge it now: what its agent is told of it, or with --owner (the key that signed it) the whole mandate. */
export const mandateShow: Command = {
  name: "mandate show",
  summary:
    "show a seat's mandate as its agent is told it (the whole of it with --owner), and why it does not count, if it does not",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...OWNER_FLAGS },
  async run(ctx) {
    const table = ctx.tableId();
    const { seat, key } = await ctx.seat();
    const client = await ctx.table(table);
    const transcript = unrefuted(await readTranscript(client, { signer: key.signer, as: { seat } }));
    const ownerKey = seatOwnerKey(transcript, seat);
    const read =
      ownerKey === undefined
        ? null
        : await readMandate(seatFiles(ctx.home, table, seat).mandate, { table, seat, ownerKey });
    if (!read || !read.ok) {
      const why = read ? read.message : "the verified transcript does not show this seat's owner";
      ctx.out.result(ctx.out.c.yellow(`no mandate in force for ${seat} at ${table}: ${why}`), {
        ok: false,
        ...(read && !read.ok ? { reason: read.reason } : {}),
        message: why,
      });
      return;
    }
    // Run with the seat's key alone, this shows what the seat's agent is told (agent-view.ts): an agent that runs it learns nothing more.
    if (optional(ctx.args, "owner") === undefined && optional(ctx.args, "owner-key") === undefined) {
      const told = mandateLines(read);
      ctx.out.result(
        [`the mandate of ${seat} at ${table}, as its agent is told it:`, ...told.map((line) => `  ${line}`)],
        { ok: true, agent_view: read.mandate.agent_view ?? "figures", told },
      );
      return;
    }
    const { key: owner } = await ctx.owner();
    if (owner.signer.publicKeyText !== read.file.owner_key)
      throw new TrestleError(
        "E_BAD_SIGNATURE",
        `that owner key did not sign the mandate of ${seat} at ${table}; only the key that signed it shows the whole of it`,
      );
    ctx.out.result(`mandate of ${seat} at ${table}: ${describe(read.mandate)}`, { ok: true, mandate: read.mandate });
  },
};

function describe(m: Mandate): string {
  const parts = [
    m.money
      ? `cap ${money(m.money.cap, m.money.currency)}${m.money.floor === undefined ? "" : `, floor ${money(m.money.floor, m.money.currency)}`}`
      : "cap 0 (no money commitments)",
  ];
  parts.push(
    `${counted(m.never_disclose.length, "never_disclose string")}${m.secret_amount === "allow" ? " (amounts equal to one allowed)" : ""}`,
  );
  if (m.require_confirm.length > 0) parts.push(`confirm ${m.require_confirm.join(", ")}`);
  if (m.paused) parts.push("PAUSED");
  if (m.sign_deals) parts.push("deals within it signed by your client");
  if (m.allowance) {
    const open = m.allowance.open === undefined ? "" : `, at most ${m.allowance.open} open`;
    parts.push(`allowance ${money(m.allowance.total, m.allowance.currency)} across a market's rooms${open}`);
  }
  if (m.markets) parts.push(`markets ${m.markets.join(", ") || "none"}`);
  if (m.categories) parts.push(`categories ${m.categories.join(", ") || "none"}`);
  if (m.agent_view === "rules") parts.push("the agent told the rules, not the figures");
  return parts.join("; ");
}

/** The mandate verbs, in help order. */
export const MANDATE: readonly Command[] = [mandateSet, mandateShow];
