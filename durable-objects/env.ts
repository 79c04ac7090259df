/** Bindings the Worker and Durable Objects share (see wrangler.toml). */
import type { RelayDO } from "./relay/relay.js";
import type { TableDO } from "./table/table.js";

/** The environment: DO namespaces, and the optional relay signing key secret (base64url seed). */
export interface Env {
  TABLES: DurableObjectNamespace<TableDO>;
  RELAY: DurableObjectNamespace<RelayDO>;
  RELAY_SIGNING_KEY?: string;
}
