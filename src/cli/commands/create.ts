/** `trestle create <config.json>`: opens a table from a config, signed by one of its owners. */
import { ownerKeyPath, readKeyFile } from "../../client/node.js";
import { validateConfig } from "../../protocol/index.js";
import { OWNER_FLAGS, optional, positionals } from "../args.js";
import { UsageError } from "../exit.js";
import { headRef } from "../../text/format.js";
import { readJsonFile } from "../json-file.js";
import type { Command } from "./command.js";

/** `create`: validates the config locally, signs it as the creating owner, opens the table. */
export const create: Command = {
  name: "create",
  summary: "open a table from a config file, signed by one of its owners",
  args: "<config.json>",
  flags: { ...OWNER_FLAGS },
  async run(ctx) {
    const [file] = positionals(ctx.args, ["config.json"]);
    const config = validateConfig(readJsonFile(file!, "the config"));
    const ownerName =
      optional(ctx.args, "owner", "TRESTLE_OWNER", ctx.io.env) ?? (await soleOwner(ctx.home, config.owners));
    const key = await readKeyFile(optional(ctx.args, "owner-key") ?? ownerKeyPath(ctx.home, ownerName), "owner");
    const client = await ctx.table(config.id);
    const { table, head } = await client.create(key.signer, ownerName, config);
    ctx.out.result(`created table ${ctx.out.c.bold(table)} (head ${headRef(head)}) on ${client.http.url}`, {
      table,
      head,
    });
  },
};

/** The one config owner whose key file is in this home with the configured public key. */
async function soleOwner(home: string, owners: Record<string, { public_key: string }>): Promise<string> {
  const mine: string[] = [];
  for (const [name, owner] of Object.entries(owners)) {
    const key = await readKeyFile(ownerKeyPath(home, name), "owner").catch(() => undefined);
    if (key?.signer.publicKeyText === owner.public_key) mine.push(name);
  }
  if (mine.length !== 1)
    throw new UsageError(
      mine.length === 0
        ? "no owner key of this config is in this home; pass --owner"
        : `several owners are yours (${mine.join(", ")}); pass --owner`,
    );
  return mine[0]!;
}
