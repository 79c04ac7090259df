/**
 * The operator settings the relays under test run with (vitest.config.ts, local relays, the bench).
 * Most tests drive one relay from one address with a few fixed owner keys, many tables at a time,
 * so their relays run with the rate limits, caps and quotas off; test/workers/limits/ runs the
 * same Worker with small, known limits, set as an operator sets them.
 */
import {
  limitSetting,
  OPERATOR_LIMITS,
  SOCKET_AUTH_MAX_MS,
  type OperatorLimitName,
} from "../../src/protocol/limits/operator-limits.js";

/** `TRESTLE_LIMIT_*` settings for `limits`. */
export function limitSettings(limits: Partial<Record<OperatorLimitName, number>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(limits).map(([name, value]) => [limitSetting(name as OperatorLimitName), String(value)]),
  );
}

/** Every limit off (0), the authentication deadline at its longest. */
export const LIMITS_OFF: Record<string, string> = limitSettings({
  ...Object.fromEntries(Object.keys(OPERATOR_LIMITS).map((name) => [name, 0])),
  socket_auth_ms: SOCKET_AUTH_MAX_MS,
});

/** The limits test/workers/limits/ runs with: small enough to reach in a test. */
export const LIMITS_UNDER_TEST = {
  seat_writes_per_min: 10,
  owner_writes_per_min: 6,
  reads_per_min: 10,
  socket_frames_per_s: 5,
  sockets_per_table: 6,
  sockets_per_seat: 2,
  public_sockets_per_table: 3,
  socket_auth_ms: 1000,
  client_tables_per_hour: 3,
  client_joins_per_min: 12,
  client_connects_per_min: 8,
  client_pages_per_hour: 3,
  edge_reads_per_min: 20,
  owner_tables_per_hour: 4,
  owner_tables: 3,
  table_ttl_ms: 24 * 60 * 60 * 1000,
  closed_table_ttl_ms: 60 * 60 * 1000,
} as const satisfies Record<OperatorLimitName, number>;
