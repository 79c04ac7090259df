/** `trestle keygen`: a new owner or seat key file (mode 0600); prints its public key. */
import { createKeyFile, ownerKeyPath, seatKeyPath, type KeyRole } from "../../client/node.js";
import { optional } from "../args.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

/** `keygen`: exactly one of --owner or --seat; never overwrites without --force. */
export const keygen: Command = {
  name: "keygen",
  summary: "create an owner or seat key file and print its public key",
  flags: {
    owner: { type: "string", value: "NAME", help: "an owner key, saved to <home>/owners/<NAME>.json" },
    seat: { type: "string", value: "NAME", help: "a seat key, saved to <home>/seats/<NAME>.json" },
    out: { type: "string", value: "FILE", help: "save to FILE instead" },
    force: { type: "boolean", help: "replace an existing key file (the old key is lost)" },
  },
  async run(ctx) {
    const owner = optional(ctx.args, "owner");
    const seat = optional(ctx.args, "seat");
    if ((owner === undefined) === (seat === undefined))
      throw new UsageError("pass exactly one of --owner NAME or --seat NAME");
    const role: KeyRole = owner !== undefined ? "owner" : "seat";
    const name = (owner ?? seat)!;
    const path =
      optional(ctx.args, "out") ?? (role === "owner" ? ownerKeyPath(ctx.home, name) : seatKeyPath(ctx.home, name));
    const key = await createKeyFile(path, role, name, { force: ctx.args.values.force === true });
    ctx.out.result(
      [
        `${role} key for ${ctx.out.c.bold(name)} saved to ${path} (mode 0600)`,
        `public key: ${key.signer.publicKeyText}`,
      ],
      { role, name, path, public_key: key.signer.publicKeyText },
    );
  },
};
