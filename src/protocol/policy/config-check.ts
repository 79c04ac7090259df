/**
 * Validating a table config before a table opens: schema first, then the rules a schema cannot
 * say (every referenced seat declared, owners known, a termination condition that can fire).
 */
import { fromBase64url } from "../encoding/bytes.js";
import { isStrongPublicKey } from "../signing/crypto.js";
import { TrestleError, parseOrThrow } from "../errors.js";
import { TableConfigSchema, type TableConfig, type TerminationCondition } from "../schemas/config.js";
import { topologyOf } from "./topology.js";
import { has } from "../encoding/records.js";
import { checkMatchRoomConfig } from "./market/citation.js";

/** Parses and checks a config; throws E_NO_TERMINATION, or E_SCHEMA naming the offending path. */
export function validateConfig(raw: unknown): TableConfig {
  if (isRecord(raw)) {
    const t = raw.termination;
    if (t === undefined || (isRecord(t) && Array.isArray(t.any) && t.any.length === 0)) {
      throw new TrestleError(
        "E_NO_TERMINATION",
        "the config needs termination: { any: [...] } with at least one condition",
      );
    }
  }
  const config = parseOrThrow(TableConfigSchema, raw, "config");
  checkKeys(config);
  checkSeats(config);
  checkTermination(config);
  checkVisibility(config);
  checkParent(config);
  checkRoom(config);
  checkMarket(config);
  checkMatchRoomConfig(config);
  return config;
}

/** A market (§5.15) has the open topology, no declared seats and is no room: its members arrive by invite and list, and their rooms are tables of their own. */
function checkMarket(config: TableConfig): void {
  if (!config.market) return;
  if (config.topology.kind !== "open") fail("market", `a market has the open topology, not ${config.topology.kind}`);
  if (config.seats) fail("seats", "a market declares no seats: its members take any free seat name");
  if (config.room) fail("room", "a market is not a room: the rooms of its matches are tables of their own");
  if (config.parent !== undefined) fail("parent", "a market is not a sub-table");
}

/** A room (§5.10) has the open topology and no declared seats: its owners arrive by invite and take any free seat name. */
function checkRoom(config: TableConfig): void {
  if (!config.room) return;
  if (config.topology.kind !== "open") fail("room", `a room has the open topology, not ${config.topology.kind}`);
  if (config.seats) fail("seats", "a room declares no seats: invited owners take any free seat name");
}

/** Visibility rules name declared seats only (when the config declares seats). */
function checkVisibility(config: TableConfig): void {
  const declared = config.seats;
  if (!declared || !config.visibility) return;
  for (const [seat, rule] of Object.entries(config.visibility)) {
    if (!has(declared, seat)) fail(`visibility.${seat}`, `seat "${seat}" is not declared in seats`);
    rule.seats?.forEach((s, i) => {
      if (!has(declared, s)) fail(`visibility.${seat}.seats[${i}]`, `seat "${s}" is not declared in seats`);
    });
  }
}

/** A sub-table declares its seats (a subset of its parent's) and is not its own parent. */
function checkParent(config: TableConfig): void {
  if (config.parent === undefined) return;
  if (config.parent === config.id) fail("parent", "a table is not its own parent");
  if (!config.seats || Object.keys(config.seats).length === 0)
    fail("seats", "a sub-table declares its seats, a subset of its parent's");
}

function checkKeys(config: TableConfig): void {
  for (const [name, owner] of Object.entries(config.owners)) {
    if (!isStrongPublicKey(fromBase64url(owner.public_key))) {
      fail(`owners.${name}.public_key`, "not a usable Ed25519 public key (small-order or non-canonical)");
    }
  }
  const keys = Object.values(config.owners).map((o) => o.public_key);
  if (new Set(keys).size !== keys.length) fail("owners", "two owners share one public key");
}

function checkSeats(config: TableConfig): void {
  const declared = config.seats ?? {};
  for (const [name, seat] of Object.entries(declared)) {
    if (!has(config.owners, seat.owner)) fail(`seats.${name}.owner`, `owner "${seat.owner}" is not in owners`);
  }
  const policy = topologyOf(config.topology);
  const referenced: [string, string][] = policy.participants.map((seat, i) => [policy.paths[i] ?? "topology", seat]);
  const decisionBy = config.floor?.decision_by;
  if (Array.isArray(decisionBy)) decisionBy.forEach((s, i) => referenced.push([`floor.decision_by[${i}]`, s]));
  for (const [path, seat] of referenced) {
    if (!has(declared, seat)) fail(path, `seat "${seat}" is not declared in seats`);
  }
  const participants = policy.participants;
  if (new Set(participants).size !== participants.length) fail("topology", "a seat appears twice in the topology");
  for (const [path, message] of policy.problems()) fail(path, message);
}

function checkTermination(config: TableConfig): void {
  const canFire = (c: TerminationCondition): boolean =>
    c === "rounds_exhausted" ? topologyOf(config.topology).finite : true;
  if (!config.termination.any.some(canFire)) {
    throw new TrestleError(
      "E_NO_TERMINATION",
      `no termination condition can fire: a ${config.topology.kind} topology without rounds never exhausts them`,
    );
  }
  // A rotation that ends leaves nobody to speak; the table must close then rather than hang.
  if (topologyOf(config.topology).finite && !config.termination.any.includes("rounds_exhausted")) {
    fail(
      "termination.any",
      `the ${config.topology.kind} rotation ends after its rounds; list "rounds_exhausted" so the table closes then`,
    );
  }
}

function fail(path: string, message: string): never {
  throw new TrestleError("E_SCHEMA", `config at ${path}: ${message}`, { issues: [{ path, message }] });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
