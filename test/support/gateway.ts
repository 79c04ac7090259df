/**
 * Commit-gateway test support shared by the Node and workerd projects: the gateway room config,
 * an effect on jenny's taskboard, approvals over HTTP, and owner sessions over the table socket.
 */
import {
  signApproval,
  signOwnerSocketAuth,
  type ApprovalStatement,
  type Effect,
  type Signer,
  type TableConfig,
} from "../../src/protocol/index.js";
import type { Fetch, RelayHttp, Reply } from "./relay-http.js";
import { TestSocket } from "./socket.js";
import { castOwners, type Cast } from "./table-fixture.js";

/** An effect on jenny's taskboard. */
export const CARD_EFFECT: Effect = {
  owner: "jenny",
  resource: "taskboard",
  action: "create_card",
  args: { title: "ship #459", column: "doing" },
};

/** An open room for task work: x (tao), y and y2 (jenny), c (ops, the checker), h (tao, human). */
export function gatewayConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-gateway",
    topic: "Who updates the taskboard?",
    owners: castOwners(k),
    seats: {
      x: { owner: "tao" },
      y: { owner: "jenny" },
      y2: { owner: "jenny" },
      c: { owner: "ops" },
      h: { owner: "tao", human: true },
    },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 200 }] },
    watchdog: { heartbeat_ms: 60_000 },
    ...overrides,
  };
}

/** POST /tables/:id/approvals with `statement` signed by `signer` in `owner`'s name. */
export async function approveHttp(
  relay: RelayHttp,
  owner: string,
  signer: Signer,
  statement: ApprovalStatement,
): Promise<Reply> {
  return relay.request("POST", `/tables/${statement.table}/approvals`, await signApproval(signer, owner, statement));
}

/** Opens the table socket as `owner`'s session (the challenge signed with the owner key). */
export async function ownerSession(
  fetch: Fetch,
  table: string,
  owner: string,
  key: Signer,
  cursor?: number,
): Promise<TestSocket> {
  const socket = await TestSocket.open(fetch, table);
  const challenge = await socket.next("challenge");
  const sig = await signOwnerSocketAuth(key, { scope: "ws", table, owner, challenge: challenge.challenge });
  socket.send({ type: "owner_auth", owner, sig, ...(cursor === undefined ? {} : { cursor }) });
  await socket.next("owner_welcome");
  return socket;
}
