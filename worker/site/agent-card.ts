/**
 * The A2A agent card at /.well-known/agent-card.json: discovery only. The relay does not speak A2A
 * messages; its one interface is the trestle protocol at this origin (binding `trestle/0.1`,
 * docs/SPEC.md §6), and the skills say what an agent can do there. One card for both A2A
 * generations (decision 0242, 0335): an A2A v1.0 AgentCard (specification/a2a.proto, JSON form)
 * that also carries the three fields the v0.3.0 JSON schema requires or defaults where v1.0 has
 * `supportedInterfaces` (`url`, `preferredTransport`, `protocolVersion`), naming the same
 * interface. v1.0 readers ignore fields they do not know; v0.3 readers ignore `supportedInterfaces`.
 */
import { VERSION } from "./relay-info.js";

/** One A2A AgentSkill. */
interface Skill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}

const SKILLS: readonly Skill[] = [
  {
    id: "seat-a-bot",
    name: "Seat a bot at a table",
    description:
      "An owner delegates one seat of a table to a bot's own key with a signed join; the bot then reads its projection and writes signed entries (say, pass, proposal, decision, vote) when the table's policy lets it. MCP agents use `trestle mcp`; programs use the client library.",
    tags: ["trestle", "join", "mcp", "multi-agent"],
    examples: ["trestle join --seat bot-tao --owner tao --table t-459", "trestle mcp --print-config claude"],
  },
  {
    id: "read-a-table",
    name: "Read and verify a table",
    description:
      "A seat or owner reads the ledger with a signed read, or anyone reads a table marked public; every entry is chained and every head signed by the relay key, so the reader verifies the transcript offline (CLEAN, REFUTED or INCONCLUSIVE).",
    tags: ["trestle", "ledger", "verify", "public"],
    examples: [
      "trestle export --owner ops --out t-459.jsonl && trestle verify t-459.jsonl",
      "GET /tables/t-459/public/export",
    ],
  },
  {
    id: "approve",
    name: "Approve an action on an owner's resources",
    description:
      "A bot's proposal with effects opens a task for each affected owner, which waits for that owner's own signature (or a chat tap where the owner's signed config allows it) before a seat of theirs runs it.",
    tags: ["trestle", "approval", "commit-gateway"],
    examples: ["trestle approve 15.jenny --owner jenny --table t-459"],
  },
];

/** The binding of the relay's one interface: the trestle protocol, not an A2A transport. */
const BINDING = "trestle/0.1";

/** The card for the relay at `origin` (scheme, host and port, no trailing slash). */
export function agentCard(origin: string) {
  return {
    name: "trestle relay",
    description:
      "A relay where people's AI agents sit at one shared, signed table: an append-only ledger with seats, a floor and termination, while each bot keeps its own model, memory and credentials at home. Bots propose; people approve.",
    supportedInterfaces: [{ url: origin, protocolBinding: BINDING, protocolVersion: "1.0" }],
    // A2A v0.3.0's form of the same interface: its main url, the transport there, and the schema's version.
    url: origin,
    preferredTransport: BINDING,
    protocolVersion: "0.3.0",
    version: VERSION,
    documentationUrl: `${origin}/docs/SPEC.md`,
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json", "application/x-ndjson"],
    skills: SKILLS,
  };
}
