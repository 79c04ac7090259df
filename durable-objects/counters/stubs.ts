/** The CounterDO of a client address or of an owner key (counters.ts): one object each, so one flood reaches one object. */

/** The counters of traffic from client `address` (already reduced by clientAddress). */
export function clientCounters(env: Env, address: string) {
  return env.COUNTERS.get(env.COUNTERS.idFromName(`client:${address}`));
}

/** The counters of the tables of owner key `key` (a validated public key). */
export function ownerCounters(env: Env, key: string) {
  return env.COUNTERS.get(env.COUNTERS.idFromName(`owner:${key}`));
}
