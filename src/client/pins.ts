/**
 * The relay pin store and the head store (Node only), both under the trestle home directory.
 * Pins are trust on first use: the first time a relay URL is used, the key it serves at
 * /.well-known/trestle.json is recorded in pins.json; from then on a different key is refused
 * loudly (E_RELAY_KEY) until the user forgets the pin on purpose. The head store keeps the newest
 * verified head of each table, so a relay that later serves a shorter or different ledger is
 * caught even by a new process.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { LIMITS, own, PublicKeySchema, SignedHeadSchema, TableIdSchema, TrestleError, type SignedHead } from "../protocol/index.js";
import type { HeadStore } from "./heads.js";
import type { HttpClient } from "./http.js";
import { systemClock, type Clock } from "./random.js";

/** One pinned relay. */
export const PinSchema = z.strictObject({ relay_key: PublicKeySchema, pinned_at: z.int().min(0) });
export type Pin = z.infer<typeof PinSchema>;

/** pins.json: relay base URL -> pin. */
export const PinsFileSchema = z.strictObject({ version: z.literal(1), relays: z.record(z.string(), PinSchema) });
export type PinsFile = z.infer<typeof PinsFileSchema>;

/** Pinned relay keys by relay URL, kept in <home>/pins.json. */
export class PinStore {
  readonly path: string;

  constructor(home: string) {
    this.path = join(home, "pins.json");
  }

  /** Every pin, by relay URL. */
  all(): Record<string, Pin> {
    return { ...this.read().relays };
  }

  /** The pin for `url`, if any. */
  get(url: string): Pin | undefined {
    return Object.hasOwn(this.read().relays, url) ? this.read().relays[url] : undefined;
  }

  /** Whether any relay URL is pinned to `key`. */
  pins(key: string): boolean {
    return Object.values(this.read().relays).some((pin) => pin.relay_key === key);
  }

  /** Pins `url` to `key`. */
  set(url: string, key: string, now: number): void {
    const file = this.read();
    file.relays[url] = { relay_key: key, pinned_at: now };
    writeAtomically(this.path, JSON.stringify(file, null, 2) + "\n");
  }

  /** Removes the pin for `url`; true if there was one. */
  forget(url: string): boolean {
    const file = this.read();
    if (!Object.hasOwn(file.relays, url)) return false;
    delete file.relays[url];
    writeAtomically(this.path, JSON.stringify(file, null, 2) + "\n");
    return true;
  }

  private read(): PinsFile {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, relays: {} };
      throw new TrestleError("E_KEY_FILE", `cannot read ${this.path}: ${(error as Error).message}`);
    }
    const parsed = PinsFileSchema.safeParse(safeJson(text));
    if (!parsed.success) throw new TrestleError("E_KEY_FILE", `${this.path} is not a trestle pin file`);
    return parsed.data;
  }
}

/** The outcome of pinning: the relay key to trust, whether it was pinned just now, and the ledger limit the relay publishes. */
export interface Pinned {
  relayKey: string;
  firstUse: boolean;
  /** The relay's `limits.entries`, which verification replays the policy with (§8.2); LIMITS.entries unless it publishes a positive integer. */
  maxEntries: number;
}

/** Trust on first use: the relay's key, recorded the first time; a changed key throws E_RELAY_KEY. */
export async function pinRelay(http: HttpClient, store: PinStore, clock: Clock = systemClock): Promise<Pinned> {
  const known = await http.wellKnown();
  const served = known.relay_key;
  const published = own(known.limits, "entries");
  const maxEntries = published !== undefined && Number.isSafeInteger(published) && published > 0 ? published : LIMITS.entries;
  const pin = store.get(http.url);
  if (!pin) {
    store.set(http.url, served, clock());
    return { relayKey: served, firstUse: true, maxEntries };
  }
  if (pin.relay_key !== served) {
    throw new TrestleError(
      "E_RELAY_KEY",
      `THE RELAY KEY CHANGED for ${http.url}: pinned ${pin.relay_key}, now serving ${served}. ` +
        "Someone may be impersonating the relay, or its operator replaced the key.",
      { url: http.url, pinned: pin.relay_key, served },
    );
  }
  return { relayKey: served, firstUse: false, maxEntries };
}

/** Newest verified heads in <home>/heads/<relay key>/<table>.json. */
export class FileHeadStore implements HeadStore {
  constructor(private readonly home: string) {}

  load(relay: string, table: string): SignedHead | null {
    if (!PublicKeySchema.safeParse(relay).success || !TableIdSchema.safeParse(table).success) return null;
    try {
      const parsed = SignedHeadSchema.safeParse(JSON.parse(readFileSync(this.pathOf(relay, table), "utf8")));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  save(head: SignedHead): void {
    writeAtomically(this.pathOf(head.relay, head.table), JSON.stringify(head) + "\n");
  }

  /** The tables this home holds a head for at the relay with key `relay`, sorted. */
  tables(relay: string): string[] {
    if (!PublicKeySchema.safeParse(relay).success) return [];
    try {
      return readdirSync(join(this.home, "heads", relay))
        .filter((name) => name.endsWith(".json"))
        .map((name) => name.slice(0, -".json".length))
        .filter((table) => TableIdSchema.safeParse(table).success)
        .sort();
    } catch {
      return [];
    }
  }

  private pathOf(relay: string, table: string): string {
    return join(this.home, "heads", relay, `${table}.json`);
  }
}

/** Writes via a temporary file and rename, so a concurrent reader never sees half a file. */
function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
