/** Argument and result schemas several tools share, taken from the protocol's own schemas. */
import { z } from "zod";
import { SaySubmissionSchema, SeatNameSchema, TableIdSchema, TaskIdSchema } from "../../protocol/index.js";

const say = SaySubmissionSchema.shape;

/**
 * `table`: which table; the active one when left out. Over HTTP a 2026-07-28 client mirrors it in
 * an `Mcp-Param-Table` header (SEP-2243), so what routes or logs requests can see the table
 * without reading the body; the server refuses a header that disagrees with the body.
 */
export const TableArg = TableIdSchema.optional()
  .describe("the table id; default: the active table (TRESTLE_TABLE, or the last one created or joined)")
  .meta({ "x-mcp-header": "Table" });

/** `to`: the seats an entry is addressed to. */
export const ToArg = say.to.describe("seats this is addressed to");

/** `re`: the entry this one answers. */
export const ReArg = say.re.describe("the seq of the entry this answers");

/** `refs`: references (entry:<seq>, task:<seq>.<owner>, table:<id>, https://…). */
export const RefsArg = say.refs.describe("references: entry:<seq>, task:<seq>.<owner>, table:<id> or https://…");

/** `tokens`: tokens spent producing the entry (counts toward a budget_tokens termination). */
export const TokensArg = say.budget
  .unwrap()
  .shape.tokens.optional()
  .describe("tokens you spent producing this entry (counts toward budget_tokens)");

/** `task`: a task id. */
export const TaskArg = TaskIdSchema.describe("the task id, <seq>.<owner> (e.g. 12.tao)");

/** The structured result of a tool that wrote one entry as this seat: where, as whom, which kind, its seq and the head after it. */
export const WrittenOutput = z.object({
  table: TableIdSchema,
  seat: SeatNameSchema,
  kind: z.string().describe("the entry's kind"),
  seq: z.int().min(1).describe("the entry's seq"),
  head: z.int().min(1).describe("the head's seq after it"),
});

/** `listing`: a market's listing named by its entry's seq or its hash (8 or more hex characters). */
export const ListingRefArg = z
  .union([z.int().min(1), z.string().regex(/^[0-9a-fA-F]{8,64}$/)])
  .describe("the listing: its entry's seq, or its hash (8 or more hex characters), as trestle_market_search lists it");
