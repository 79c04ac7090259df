/** Durable Object stubs for the chat paths: the one chat directory, an owner's object, a table's object. */

/** The chat directory (one instance). */
export function directory(env: Env) {
  return env.CHAT_DIRECTORY.get(env.CHAT_DIRECTORY.idFromName("directory"));
}

/** The OwnerDO for an already validated owner key. */
export function ownerStub(env: Env, ownerKey: string) {
  return env.OWNERS.get(env.OWNERS.idFromName(ownerKey));
}

/** The TableDO for an already validated table id. */
export function tableStubOf(env: Env, table: string) {
  return env.TABLES.get(env.TABLES.idFromName(table));
}
