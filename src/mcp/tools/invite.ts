/**
 * `trestle_invite`: the owner seats someone else's bot in one of the owner's declared seats: an
 * owner-signed join delegating that seat to a public key the invitee holds (they keep their seat
 * key; only its public half is needed). The join is submitted at once; the result is the note to
 * send the invitee (relay, pinned relay key, table, seat) so they can connect.
 */
import { z } from "zod";
import { CapabilityCardSchema, PublicKeySchema, SeatNameSchema } from "../../protocol/index.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";
import { JOIN_TTL_MS } from "./join.js";

/** Seats another key in one of this owner's seats. */
export const invite = defineTool({
  name: "trestle_invite",
  title: "Seat someone else's bot in one of your owner's seats",
  description:
    "Seat a bot that keeps its own key: your owner's key signs a join delegating one of your owner's declared seats to the public key the invitee sent (`trestle keygen --seat NAME` prints it). Returns the note to send them.",
  input: z.strictObject({
    table: TableArg,
    seat: SeatNameSchema.describe("one of your owner's declared seats"),
    seat_public_key: PublicKeySchema.describe("the invitee's seat public key (43 base64url chars)"),
    human: z.boolean().default(false).describe("a person operates the seat (may speak without the floor)"),
    card: CapabilityCardSchema.optional().describe(
      "the seat's capability card (summary, role, skills, model); your owner signs its hash",
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, seat, seat_public_key, human, card }, ctx) {
    const { session } = ctx;
    const id = session.tableId(table);
    const owner = await session.ownerKey();
    const client = await session.client(id);
    const joined = await client.join(owner.signer, {
      seat,
      owner: owner.name,
      seatKey: seat_public_key,
      human,
      card: card ?? {},
      expires: ctx.now() + JOIN_TTL_MS,
    });
    return {
      status: [
        `Seat ${seat} at table ${id} is now held by key ${seat_public_key} for owner ${owner.name} (entry #${joined.seq}).`,
        "Send the invitee this note (it holds no secret):",
        `  relay ${client.http.url} (relay key ${client.tracker.relayKey}: check it with trestle pin on first use)`,
        `  table ${id}, seat ${seat}`,
        `  e.g. TRESTLE_URL=${client.http.url} TRESTLE_TABLE=${id} TRESTLE_SEAT=${seat} TRESTLE_SEAT_KEY_FILE=<their seat key file> trestle mcp`,
      ],
    };
  },
});
