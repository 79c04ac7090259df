/**
 * A market opened from the command line for the CLI's market tests (docs/CLI.md "Markets"): hana
 * makes her owner key, creates the market with two categories, seats hana-bot, and admits each
 * member by its owner key, which the member makes on its own machine and joins with, seating
 * `<member>-bot`, no code passed.
 */

/** Runs `args` as `who` on its own machine (its own home), expecting exit 0, and returns the JSON it printed. */
export type RunAs<N extends string> = (who: N | "hana", args: string[]) => Promise<Record<string, unknown>>;

/** Opens `market` as hana through `ok` and admits and seats `members`. */
export async function openCliMarket<N extends string>(
  ok: RunAs<N>,
  market: string,
  members: readonly N[],
): Promise<void> {
  await ok("hana", ["keygen", "--owner", "hana"]);
  await ok("hana", [
    "market",
    "create",
    "--table",
    market,
    "--owner",
    "hana",
    "--topic",
    "Parents' swap",
    "--categories",
    "baby-gear,books",
  ]);
  await ok("hana", ["join", "--table", market, "--owner", "hana", "--seat", "hana-bot"]);
  for (const name of members) {
    const { public_key } = await ok(name, ["keygen", "--owner", name]);
    const { invite } = await ok("hana", [
      "market",
      "admit",
      "--table",
      market,
      "--owner",
      "hana",
      "--key",
      String(public_key),
    ]);
    await ok(name, [
      "market",
      "join",
      "--table",
      market,
      "--invite",
      String(invite),
      "--owner",
      name,
      "--seat",
      `${name}-bot`,
    ]);
  }
}
