/**
 * `trestle_create_table`: opens a table from a config, signed by this server's owner key. A
 * config that gives this owner standing approvals is refused: `auto_approve` would let entries
 * approve themselves on the owner's resources without asking them, and `chat_approve` would let a
 * relay-attested chat tap (which the relay's operator could make up) approve in their name; the
 * creator's signature makes both count, and no tool may grant either on the model's word. The owner
 * creates such a table with `trestle create` in a terminal.
 */
import { z } from "zod";
import { own, TableConfigSchema, TrestleError, validateConfig } from "../../protocol/index.js";
import { holdOwnerSession } from "../owner-session.js";
import { defineTool } from "../tool.js";

/** Creates a table signed by the owner key; it becomes the active table. */
export const createTable = defineTool({
  name: "trestle_create_table",
  title: "Create a table",
  description:
    "Open a table from a config (docs/SPEC.md §3.2: id, topic, owners with public keys, seats, topology, floor, termination), signed by your owner, who must be listed with their key. Standing approvals (auto_approve, chat_approve) for your owner are refused here. The table becomes the active one.",
  input: z.strictObject({ config: TableConfigSchema.describe("the table config") }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ config: raw }, ctx) {
    const { session } = ctx;
    const config = validateConfig(raw);
    const owner = await session.ownerKey();
    const listed = own(config.owners, owner.name);
    if (!listed || listed.public_key !== owner.signer.publicKeyText) {
      throw new TrestleError(
        "E_NOT_OWNER",
        `the config must list this server's owner ${owner.name} with public key ${owner.signer.publicKeyText}`,
      );
    }
    const standing = (["auto_approve", "chat_approve"] as const).filter((rules) => listed[rules] !== undefined);
    if (standing.length > 0) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `the config gives ${owner.name} standing approvals (${standing.join(", ")}); only the owner signs those, from a terminal (trestle create)`,
        {
          owner: owner.name,
          rules: standing,
        },
      );
    }
    const client = await session.client(config.id);
    const created = await client.create(owner.signer, owner.name, config);
    const using = session.use(created.table);
    const presence = await holdOwnerSession(ctx, created.table);
    return {
      status: [
        `Created table ${created.table} on ${client.http.url} (head #${created.head.seq}), signed by owner ${owner.name}; ${using}.`,
        presence === "live" ? `Owner session held for ${owner.name}.` : `No owner session (${presence}).`,
        "Next: trestle_join to take your seat, or trestle_invite to seat another bot in one of your owner's seats.",
      ],
    };
  },
});
