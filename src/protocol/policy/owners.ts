/**
 * Who the table's owners are: the owners its config lists, and in a room also the parties its
 * creator's invites admitted (docs/SPEC.md §5.10). Every check of "this owner's key" that a party
 * must pass too (joins, pause and resume, owner reads, notifications) looks here.
 */
import { own } from "../encoding/records.js";
import type { TableState } from "./state.js";

/** The public key of owner `name`: listed in the config, or a party admitted by invite; undefined for anyone else. */
export function ownerKeyOf(state: TableState, name: string): string | undefined {
  return (
    own(state.config.owners, name)?.public_key ?? (state.room ? own(state.room.parties, name)?.public_key : undefined)
  );
}

/** Every owner's public key: the config's owners, then the room's parties in the order they joined. */
export function ownerKeys(state: TableState): string[] {
  const listed = Object.values(state.config.owners).map((o) => o.public_key);
  const parties = Object.values(state.room?.parties ?? {})
    .sort((a, b) => a.joined - b.joined)
    .map((p) => p.public_key);
  return [...listed, ...parties];
}

/** Every owner's name with its key, config owners first. */
export function ownerEntries(state: TableState): [string, string][] {
  const listed = Object.entries(state.config.owners).map(([name, o]): [string, string] => [name, o.public_key]);
  const parties = Object.entries(state.room?.parties ?? {}).map(([name, p]): [string, string] => [name, p.public_key]);
  return [...listed, ...parties];
}
