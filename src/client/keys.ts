/**
 * Owner and seat key files (Node only). A key file is JSON holding a 32-byte Ed25519 seed as
 * base64url with its public key; it is created with mode 0600 inside a 0700 directory, never
 * overwritten unless asked, and refused when group or others may read it (as ssh refuses such a
 * private key), or when its public key does not match its seed.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod";
import { ed25519, fromBase64url, PublicKeySchema, toBase64url, TrestleError, type Signer } from "../protocol/index.js";
import { readPrivateJson } from "./private-file.js";
import { randomSeed } from "./random.js";

/** What a key is for: an owner (signs creates, joins, approvals) or a seat (signs its entries). */
export const KeyRoleSchema = z.enum(["owner", "seat"]);
export type KeyRole = z.infer<typeof KeyRoleSchema>;

/** A key file's content. */
export const KeyFileSchema = z.strictObject({
  type: z.literal("trestle-key"),
  version: z.literal(1),
  role: KeyRoleSchema,
  name: z.string().min(1).max(64),
  seed: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "32-byte base64url seed"),
  public_key: PublicKeySchema,
});
export type KeyFile = z.infer<typeof KeyFileSchema>;

/** A loaded key: its file, its role and name, and a signer (the seed stays inside it). */
export interface LoadedKey {
  path: string;
  role: KeyRole;
  name: string;
  signer: Signer;
}

/**
 * Writes a new key file at `path` (mode 0600); refuses to replace an existing file unless `force`.
 * A forced write removes the old entry and creates a new file, never writing through it: a symlink
 * there (its target) or a file others could read gets nothing of the new seed.
 */
export async function createKeyFile(
  path: string,
  role: KeyRole,
  name: string,
  options: { force?: boolean; seed?: Uint8Array } = {},
): Promise<LoadedKey> {
  const seed = options.seed ?? randomSeed();
  const signer = await (await ed25519()).signer(seed);
  const file: KeyFile = {
    type: "trestle-key",
    version: 1,
    role,
    name,
    seed: toBase64url(seed),
    public_key: signer.publicKeyText,
  };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    if (options.force) rmSync(path, { force: true });
    writeFileSync(path, JSON.stringify(file, null, 2) + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new TrestleError("E_KEY_FILE", `${path} already exists; pass --force to replace it (the old key is lost)`);
    }
    throw new TrestleError("E_KEY_FILE", `cannot write ${path}: ${(error as Error).message}`);
  }
  chmodSync(path, 0o600);
  return { path, role, name, signer };
}

/** The key file at `path`, read, or created (mode 0600) when there is none yet: `trestle join` and `trestle_join` seat a new seat key this way. */
export async function loadOrCreateKeyFile(
  path: string,
  role: KeyRole,
  name: string,
): Promise<{ key: LoadedKey; created: boolean }> {
  if (existsSync(path)) return { key: await readKeyFile(path, role), created: false };
  return { key: await createKeyFile(path, role, name), created: true };
}

/** Reads a key file; throws E_KEY_FILE if it is missing, malformed, mismatched or readable by others. */
export async function readKeyFile(path: string, role?: KeyRole): Promise<LoadedKey> {
  const json = readPrivateJson(path);
  if (json === undefined) throw new TrestleError("E_KEY_FILE", `no key file at ${path}`);
  const parsed = KeyFileSchema.safeParse(json);
  if (!parsed.success) throw new TrestleError("E_KEY_FILE", `${path} is not a trestle key file`);
  const file = parsed.data;
  if (role && file.role !== role)
    throw new TrestleError("E_KEY_FILE", `${path} holds ${article(file.role)} key, not ${article(role)} key`);
  const signer = await (await ed25519()).signer(fromBase64url(file.seed));
  if (signer.publicKeyText !== file.public_key) {
    throw new TrestleError("E_KEY_FILE", `${path}: its public_key does not belong to its seed`);
  }
  return { path, role: file.role, name: file.name, signer };
}

function article(role: KeyRole): string {
  return role === "owner" ? "an owner" : "a seat";
}
