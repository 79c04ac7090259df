/** The GateDO of a client address or of an owner key (gate.ts): one object each, so one flood reaches one object. */

/** The gate counting traffic from client `address` (already reduced by clientAddress). */
export function clientGate(env: Env, address: string) {
  return env.GATES.get(env.GATES.idFromName(`client:${address}`));
}

/** The gate counting the tables of owner key `key` (a validated public key). */
export function ownerGate(env: Env, key: string) {
  return env.GATES.get(env.GATES.idFromName(`owner:${key}`));
}
