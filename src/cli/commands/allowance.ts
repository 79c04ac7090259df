/**
 * `trestle allowance show|reconcile` (docs/MARKETS.md "An owner's allowance"): the owner reads what
 * their allowance store for a market counts (spent, reserved, open, each open commitment with its
 * room), and brings it up to date from every room's verified ledger, reading each room as the seat
 * that wrote there with its key in this home; what the rooms ended is released or spent.
 */
import { readKeyFile, seatKeyPath } from "../../client/node.js";
import { allowanceTotals, AllowanceStore, readTranscript, reconcileAllowance, type AllowanceFile, type AllowanceTotals } from "../../owner/index.js";
import { OWNER_FLAGS, required, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { money } from "../room.js";
import type { Command } from "./command.js";

const FLAGS: Flags = { ...OWNER_FLAGS, market: { type: "string", value: "ID", help: "the market (its table id; default $TRESTLE_MARKET)" } };

/** The store of --owner (its key in this home) in --market. */
async function storeOf(ctx: Context): Promise<AllowanceStore> {
  const market = required(ctx.args, "market", "TRESTLE_MARKET", ctx.io.env);
  const { owner, key } = await ctx.owner();
  return new AllowanceStore(ctx.home, { owner, ownerKey: key.signer.publicKeyText, market });
}

/** The totals in words, in the currency the buyer's commitments are in. */
function totalsText(totals: AllowanceTotals, file: AllowanceFile): string {
  const currency = file.commitments.find((c) => c.currency !== undefined)?.currency;
  const amount = (n: number) => (currency === undefined ? String(n) : money(n, currency));
  return `spent ${amount(totals.spent)}, reserved ${amount(totals.reserved)}, ${totals.open} open`;
}

/** `allowance show`: what the store counts. */
export const allowanceShow: Command = {
  name: "allowance show",
  summary: "show what your allowance in a market counts: spent, reserved and open commitments across its rooms",
  flags: FLAGS,
  async run(ctx) {
    const store = await storeOf(ctx);
    const file = store.read();
    const open = file.commitments.filter((c) => c.state === "open");
    const lines = [
      `${file.owner} in market ${file.market}: ${totalsText(allowanceTotals(file.commitments), file)}`,
      ...open.map((c) => `  ${c.room}  ${c.kind}${c.seq === undefined ? " (not yet seen in its room)" : ` #${c.seq}`}  ${c.side}${c.currency === undefined ? "" : `  ${money(c.amount, c.currency)}`}`),
    ];
    ctx.out.result(lines, file);
  },
};

/** `allowance reconcile`: brings the store up to date from every room's ledger. */
export const allowanceReconcile: Command = {
  name: "allowance reconcile",
  summary: "release or spend what your market rooms' verified ledgers ended, across all of a market's rooms",
  flags: FLAGS,
  async run(ctx) {
    const store = await storeOf(ctx);
    const read = async (room: string, seat: string) => {
      const key = await readKeyFile(seatKeyPath(ctx.home, seat), "seat");
      return readTranscript(await ctx.table(room), { signer: key.signer, as: { seat } });
    };
    const done = await reconcileAllowance(store, read, ctx.io.clock);
    const file = store.read();
    const lines = [
      `before: ${totalsText(done.before, file)}`,
      `after:  ${totalsText(done.after, file)}`,
      ...done.rooms.map((r) => (r.ok ? `  ${r.room}: brought up to date` : ctx.out.c.yellow(`  ${r.room}: kept as it was (${r.reason})`))),
    ];
    ctx.out.result(lines, done);
  },
};

/** The allowance verbs, in help order. */
export const ALLOWANCE: readonly Command[] = [allowanceShow, allowanceReconcile];
