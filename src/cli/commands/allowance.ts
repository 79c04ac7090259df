/**
 * `trestle allowance show|reconcile` (docs/MARKETS.md "An owner's allowance"): the owner reads what
 * their allowance store for a market counts (spent, reserved, open, each open commitment with its
 * room, a sealed bid with its listing), and brings it up to date from every room's verified
 * ledger, reading each room as the seat that wrote there with its key in this home; what the rooms
 * ended is released or spent.
 */
import {
  allowanceTotals,
  AllowanceStore,
  reconcileAllowance,
  seatReader,
  type AllowanceFile,
  type AllowanceTotals,
} from "../../owner/index.js";
import { OWNER_FLAGS, required, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { money } from "../room.js";
import { allowanceTotalsText, commitmentText } from "../../text/allowance.js";
import type { Command } from "./command.js";

const FLAGS: Flags = {
  ...OWNER_FLAGS,
  market: { type: "string", value: "ID", help: "the market (its table id; default $TRESTLE_MARKET)" },
};

/** The store of --owner (its key in this home) in --market. */
async function storeOf(ctx: Context): Promise<AllowanceStore> {
  const market = required(ctx.args, "market", "TRESTLE_MARKET", ctx.io.env);
  const { owner, key } = await ctx.owner();
  return new AllowanceStore(ctx.home, { owner, ownerKey: key.signer.publicKeyText, market });
}

/** The totals in words, in the currency the buyer's commitments are in. */
function totalsText(totals: AllowanceTotals, file: AllowanceFile): string {
  return allowanceTotalsText(totals, file.commitments.find((c) => c.currency !== undefined)?.currency);
}

/** The verb `allowance <verb>`, run on the store of --owner in --market. */
function allowanceVerb(
  verb: string,
  summary: string,
  run: (ctx: Context, store: AllowanceStore) => Promise<void>,
): Command {
  return { name: `allowance ${verb}`, summary, flags: FLAGS, run: async (ctx) => run(ctx, await storeOf(ctx)) };
}

/** `allowance show`: what the store counts. */
export const allowanceShow = allowanceVerb(
  "show",
  "show what your allowance in a market counts: spent, reserved and open commitments across its rooms",
  async (ctx, store) => {
    const file = store.read();
    const open = file.commitments
      .filter((c) => c.state === "open")
      .map(
        (c) =>
          `  ${c.room}  ${commitmentText(c)}  ${c.side}${c.currency === undefined ? "" : `  ${money(c.amount, c.currency)}`}`,
      );
    ctx.out.result(
      [`${file.owner} in market ${file.market}: ${totalsText(allowanceTotals(file.commitments), file)}`, ...open],
      file,
    );
  },
);

/** `allowance reconcile`: brings the store up to date from every room's ledger, each read as the seat that wrote there. */
export const allowanceReconcile = allowanceVerb(
  "reconcile",
  "release or spend what your market rooms' verified ledgers ended, across all of a market's rooms",
  async (ctx, store) => {
    const done = await reconcileAllowance(
      store,
      seatReader(ctx.home, (room) => ctx.table(room)),
      ctx.io.clock,
    );
    const file = store.read();
    const rooms = done.rooms.map((r) =>
      r.ok ? `  ${r.room}: brought up to date` : ctx.out.c.yellow(`  ${r.room}: kept as it was (${r.reason})`),
    );
    ctx.out.result(
      [`before: ${totalsText(done.before, file)}`, `after:  ${totalsText(done.after, file)}`, ...rooms],
      done,
    );
  },
);

/** The allowance verbs, in help order. */
export const ALLOWANCE: readonly Command[] = [allowanceShow, allowanceReconcile];
