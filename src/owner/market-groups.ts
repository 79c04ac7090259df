/**
 * A market's chat groups from its creator's machine (docs/MARKETS.md "Groups", docs/SPEC.md §5.15):
 * a one-time code that binds a Telegram group, LINE group or Discord channel (signed by the creator's
 * owner key, purpose `room`), the signed unbinding, and the groups a member or the creator reads
 * with how delivery to each stands. Every head the relay answers with is judged by the market's
 * TableClient, as an invite's is.
 */
import {
  signGroupCode,
  signGroupUnbind,
  type ChatPlatform,
  type GroupCodeResponse,
  type GroupsResponse,
  type GroupUnbindResponse,
  type Lang,
  type Signer,
} from "../protocol/index.js";
import type { Reader } from "../client/http.js";
import { randomNonce, systemClock, type Clock } from "../client/random.js";
import type { TableClient } from "../client/table-client.js";

/** A code that binds one group of `platform` to `client`'s market, the group told things in `lang`: valid 10 minutes, used once, typed in the group. */
export function groupCode(
  client: TableClient,
  creator: Signer,
  platform: ChatPlatform,
  lang: Lang,
  clock: Clock = systemClock,
): Promise<GroupCodeResponse> {
  return signGroupCode(creator, { table: client.table, platform, lang, nonce: randomNonce(), ts: clock() }).then(
    (request) => client.http.groupCode(client.table, request),
  );
}

/** Unbinds `group` of `platform` from `client`'s market, signed by its creator; the answer's head is judged. */
export async function unbindGroup(
  client: TableClient,
  creator: Signer,
  platform: ChatPlatform,
  group: string,
  clock: Clock = systemClock,
): Promise<GroupUnbindResponse> {
  const request = await signGroupUnbind(creator, {
    table: client.table,
    platform,
    group,
    nonce: randomNonce(),
    ts: clock(),
  });
  const since = client.tracker.held;
  const response = await client.http.unbindGroup(client.table, request);
  await client.tracker.observe(response.head, since);
  return response;
}

/** The groups bound to `client`'s market now, with their delivery health, read as `reader` (none: only at a public market); the answer's head is judged. */
export async function marketGroups(client: TableClient, reader?: Reader): Promise<GroupsResponse> {
  const since = client.tracker.held;
  const answer = await client.http.groups(client.table, reader);
  await client.tracker.observe(answer.head, since);
  return answer;
}
