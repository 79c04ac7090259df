/**
 * The relay pin store (Node only), under the trestle home directory. Pins are trust on first use:
 * the first time a relay URL is used, the key it serves at /.well-known/trestle.json is recorded
 * in pins.json; from then on a different key is refused loudly (E_RELAY_KEY) until the user
 * forgets the pin on purpose. The held heads and evidence of each table live in head-store.ts.
 */
import { join } from "node:path";
import * as z from "zod";
import { LIMITS, own, PublicKeySchema, TrestleError } from "../protocol/index.js";
import { readJsonFile, writeAtomically } from "./files.js";
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
    const file = readJsonFile(this.path);
    if (!file.exists) return { version: 1, relays: {} };
    const parsed = PinsFileSchema.safeParse(file.value);
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
  const maxEntries =
    published !== undefined && Number.isSafeInteger(published) && published > 0 ? published : LIMITS.entries;
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
