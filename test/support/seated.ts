/** Sets up a debate table with all three seats joined, through any relay driver. */
import type { TableConfig } from "../../src/protocol/index.js";
import type { RelayHttp } from "./relay-http.js";
import { cast, debateConfig, type Cast } from "./table-fixture.js";

/** Creates table `id` (debate unless overridden) and joins bot-tao, bot-jenny and judge; the cast's keys unless `keys` are given. */
export async function seatedDebate(
  relay: RelayHttp,
  id: string,
  overrides: Partial<TableConfig> = {},
  keys?: Cast,
): Promise<Cast> {
  const k = keys ?? (await cast());
  const created = await relay.create(k.ops, "ops", debateConfig(k, { id, ...overrides }));
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  for (const [owner, ownerName, seat, key] of [
    [k.tao, "tao", "bot-tao", k.botTao],
    [k.jenny, "jenny", "bot-jenny", k.botJenny],
    [k.ops, "ops", "judge", k.judge],
  ] as const) {
    const joined = await relay.join(id, owner, ownerName, seat, key);
    if (joined.status !== 201) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
  }
  return k;
}
