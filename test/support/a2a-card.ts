/**
 * A2A v1.0 agent cards for tests that serve an agent with @a2a-js/sdk's server classes: a debater
 * with one JSON-RPC interface, no streaming, text and JSON in and out.
 */
import type { AgentCard } from "@a2a-js/sdk";

/** The card of an agent whose JSON-RPC endpoint is `rpc`, an interface of A2A `version`. */
export function debaterCard(rpc: string, version = "1.0"): AgentCard {
  return {
    name: "debater",
    description: "argues one side of a trestle debate",
    supportedInterfaces: [{ url: rpc, protocolBinding: "JSONRPC", tenant: "", protocolVersion: version }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [],
    signatures: [],
  };
}
