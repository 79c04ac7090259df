/**
 * An exclusive lock across the processes of one machine and the machines that share a folder (Node
 * only, no native addon; decision 0465). The lock is a file made whole at once: a temporary file
 * naming its holder (pid, host, a random nonce) hard-linked to the lock's name, which fails while the
 * lock exists. A lock whose holder ran on this host and runs no more is stale, and is broken by
 * exactly one waiter: it hard-links the lock to a name the stale holder's nonce determines (every
 * other breaker's link then fails) and removes the lock only when what it linked is that holder's,
 * so a live lock is never removed. Another host's lock is never broken here (its process cannot be
 * seen): it is waited for, then the wait fails closed, naming the lock file for its owner.
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { randomNonce } from "../client/random.js";
import { NonceSchema, TrestleError } from "../protocol/index.js";
import { processEnded, ReserverSchema, thisProcess } from "./process-identity.js";

/** Who holds a lock: its process and the nonce of this holding. */
const HolderSchema = z.strictObject({ ...ReserverSchema.shape, nonce: NonceSchema });
type Holder = z.infer<typeof HolderSchema>;

/** How long a waiter waits for a live holder before failing closed. */
const WAIT_MS = 15_000;

/**
 * Runs `work` while holding the lock at `path` (its folder must exist) and releases it after, also
 * when `work` throws. A stale lock is broken first; a live one is waited for up to WAIT_MS, then
 * E_MANDATE (`locked`) names it.
 */
export async function withLock<T>(path: string, work: () => T): Promise<T> {
  const mine: Holder = { ...thisProcess(), nonce: randomNonce() };
  const deadline = Date.now() + WAIT_MS;
  for (let wait = 1; !take(path, mine); wait = Math.min(wait * 2, 50)) {
    const held = holderAt(path);
    if (held !== null && processEnded(held)) {
      breakStale(path, held);
      continue;
    }
    if (Date.now() > deadline) {
      const who = held === null ? "a holder that cannot be read" : `process ${held.pid} on ${held.host}`;
      throw new TrestleError(
        "E_MANDATE",
        `${path} is held by ${who}; if no trestle process of the owner runs there, remove that file`,
        { reason: "locked", lock: path },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait));
  }
  try {
    return work();
  } finally {
    // Only a breaker removes another's lock, and only a dead holder's: while we run, the lock is ours.
    if (holderAt(path)?.nonce === mine.nonce) unlinkSync(path);
  }
}

/** Creates the lock naming `holder`, whole, unless it exists; false when it does. */
function take(path: string, holder: Holder): boolean {
  const temp = `${path}.${holder.nonce}.tmp`;
  writeFileSync(temp, JSON.stringify(holder), { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new TrestleError(
      "E_MANDATE",
      `the lock ${path} cannot be made (${(error as Error).message}): this folder must take hard links`,
      { reason: "locked", lock: path },
    );
  } finally {
    unlinkSync(temp);
  }
}

/** Removes the lock at `path` if it still is `stale`'s, unless another breaker is at it. */
function breakStale(path: string, stale: Holder): void {
  const aside = `${path}.broken-${stale.nonce}`;
  try {
    linkSync(path, aside);
  } catch {
    // Another breaker holds `aside`, or the lock is gone: either way it is not ours to remove.
    return;
  }
  try {
    // Only the breaker that linked `aside` may remove `stale`'s lock; what it linked must be that lock.
    if (holderAt(aside)?.nonce === stale.nonce) removeQuietly(path);
  } finally {
    removeQuietly(aside);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing of it is left to hold anyone.
  }
}

/** The holder the lock file at `path` names, or null when there is none or it does not parse. */
function holderAt(path: string): Holder | null {
  try {
    return HolderSchema.safeParse(JSON.parse(readFileSync(path, "utf8"))).data ?? null;
  } catch {
    return null;
  }
}
