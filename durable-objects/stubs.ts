/**
 * The relay's Durable Objects, each reached by the name that picks its instance, in one place and
 * one spelling: a table's object by its id, an owner's by its owner key, the counters of a client
 * address or an owner key, and the relay's one invite directory, chat directory and relay key.
 * Callers validate the name first (a table id, a public key); the same name always reaches the
 * same object.
 */

/** The TableDO of table `id` (a validated table id). */
export function tableObject(env: Env, id: string) {
  return env.TABLES.getByName(id);
}

/** The OwnerDO of owner key `ownerKey` (a validated public key): its chat bindings, inbox and outbox. */
export function ownerObject(env: Env, ownerKey: string) {
  return env.OWNERS.getByName(ownerKey);
}

/** The counters of traffic from client `address` (already reduced by clientAddress). */
export function clientCounters(env: Env, address: string) {
  return env.COUNTERS.getByName(`client:${address}`);
}

/** The counters of the tables of owner key `key` (a validated public key). */
export function ownerCounters(env: Env, key: string) {
  return env.COUNTERS.getByName(`owner:${key}`);
}

/** The invite directory (one object for the relay). */
export function inviteDirectory(env: Env) {
  return env.INVITES.getByName("invites");
}

/** The chat directory (one object for the relay). */
export function chatDirectory(env: Env) {
  return env.CHAT_DIRECTORY.getByName("directory");
}

/** The object that keeps the relay's signing key when no RELAY_SIGNING_KEY is set (one for the relay). */
export function relayKeyObject(env: Env) {
  return env.RELAY.getByName("relay");
}
