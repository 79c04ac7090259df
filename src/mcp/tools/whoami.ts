/** `trestle_whoami`: who this server acts as, where, with which card, and whether it can ask its owner. */
import { z } from "zod";
import { PinStore } from "../../client/node.js";
import { TrestleError } from "../../protocol/index.js";
import type { Identity, McpSession } from "../session.js";
import { defineTool } from "../tool.js";

/** Reports the configured relay, table, owner, seat, card and approval path. */
export const whoami = defineTool({
  name: "trestle_whoami",
  title: "Who am I at the table",
  description:
    "Show the relay, the active table, your seat and owner with their public keys, your capability card, and whether this client can ask your owner to approve tasks.",
  input: z.strictObject({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(_args, ctx) {
    const { session } = ctx;
    const { settings } = session;
    const pin = new PinStore(settings.home).get(settings.url);
    const live =
      session.active && session.tables.includes(session.active)
        ? (await session.live(session.active)).ownerLive
        : false;
    return {
      status: [
        `relay ${settings.url} (${pin ? `pinned key ${pin.relay_key}` : "not pinned yet: pinned on first use"})`,
        `active table: ${session.active ?? "none (pass table, set TRESTLE_TABLE, or create or join one)"}`,
        `seat: ${await describe(() => session.seatKey(), "TRESTLE_SEAT_KEY_FILE")}`,
        `owner: ${await describe(() => session.ownerKey(), "TRESTLE_OWNER_KEY_FILE")}`,
        `capability card: ${cardText(session)}`,
        `owner's instructions: ${settings.instructionsFile ?? "none (TRESTLE_INSTRUCTIONS_FILE)"}`,
        ctx.elicitation.url
          ? "approvals: trestle_approve and trestle_reject give your owner a link (through this client) to the principal window, where their key signs only if they approve."
          : `approvals: this client cannot show your owner a link (${ctx.elicitation.form ? "forms only, and a form never signs" : "no elicitation"}), so trestle_approve refuses; your owner answers with trestle approve in a terminal or in trestle view.`,
        `owner session at the active table: ${live ? "held (the relay counts your owner as reachable)" : "none"}`,
      ],
    };
  },
});

async function describe(load: () => Promise<Identity>, variable: string): Promise<string> {
  try {
    const key = await load();
    return `${key.name}, public key ${key.signer.publicKeyText} (${key.path})`;
  } catch (error) {
    return error instanceof TrestleError
      ? `not usable (${error.code}: ${error.message})`
      : `not usable; check ${variable}`;
  }
}

function cardText(session: McpSession): string {
  const path = session.settings.cardFile;
  if (path === undefined) return "none configured (TRESTLE_CARD_FILE): joins use an empty card";
  try {
    return `${path}: ${JSON.stringify(session.card())}`;
  } catch (error) {
    return error instanceof TrestleError
      ? `${path} is not usable (${error.code}: ${error.message})`
      : `${path} is not usable`;
  }
}
