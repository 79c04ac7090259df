/** Bindings the Worker and Durable Objects share (see wrangler.toml). */
import type { ChatDirectoryDO } from "./chat/directory.js";
import type { GateDO } from "./gate/gate.js";
import type { OwnerDO } from "./owner/owner.js";
import type { RelayDO } from "./relay/relay.js";
import type { TableDO } from "./table/table.js";
import type { InviteDirectoryDO } from "./invites/directory.js";

/** The environment: DO namespaces, the optional relay signing key secret (base64url seed), other optional settings are read by settings.ts and limits/config.ts. */
export interface Env {
  TABLES: DurableObjectNamespace<TableDO>;
  RELAY: DurableObjectNamespace<RelayDO>;
  OWNERS: DurableObjectNamespace<OwnerDO>;
  CHAT_DIRECTORY: DurableObjectNamespace<ChatDirectoryDO>;
  INVITES: DurableObjectNamespace<InviteDirectoryDO>;
  RELAY_SIGNING_KEY?: string;
  /** Per-address and per-owner-key counters (gate/gate.ts). */
  GATES: DurableObjectNamespace<GateDO>;
  /** Cloudflare's rate-limiting binding for unsigned reads per client address (worker/limits/edge.ts); absent where not configured. */
  EDGE_READS?: RateLimit;
}
