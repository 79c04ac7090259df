/**
 * Bench tables over raw HTTP with the protocol's own signing (no client library, so the load
 * generator stays light): an open room with `seats` seats of one owner, joined, ending only at
 * the ledger limit; and the pre-signed submissions a load run sends.
 */
import {
  ed25519,
  LIMITS,
  sha256,
  signCreate,
  signJoin,
  signSubmission,
  toBase64url,
  utf8,
  type SignedHead,
  type Signer,
  type SubmitRequest,
  type TableConfig,
} from "../../../src/protocol/index.js";

/** A seat at a bench table. */
export interface BenchSeat {
  name: string;
  signer: Signer;
}

/** An open bench table: its id, owner and seats. */
export interface BenchTable {
  url: string;
  id: string;
  owner: Signer;
  seats: BenchSeat[];
}

/** A deterministic WebCrypto signer for `label`. */
export async function benchSigner(label: string): Promise<Signer> {
  return (await ed25519()).signer(sha256(utf8(`trestle bench ${label}`)));
}

/** POSTs JSON and returns the parsed body; throws with the relay's error otherwise. */
export async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${parsed.error?.code} ${parsed.error?.message}`);
  return parsed;
}

/** The table's current signed head. */
export async function headOf(table: Pick<BenchTable, "url" | "id">): Promise<SignedHead> {
  return (await fetch(`${table.url}/tables/${table.id}/head`)).json() as Promise<SignedHead>;
}

/** Creates an open room `id` with `seats` seats (s0, s1, …) of owner "ops", all joined. */
export async function openRoom(url: string, id: string, seats: number): Promise<BenchTable> {
  const owner = await benchSigner("owner ops");
  const names = Array.from({ length: seats }, (_, i) => `s${i}`);
  const config: TableConfig = {
    id,
    topic: "benchmark",
    owners: { ops: { public_key: owner.publicKeyText } },
    seats: Object.fromEntries(names.map((name) => [name, { owner: "ops" }])),
    topology: { kind: "open" },
    termination: { any: [{ max_entries: LIMITS.entries }] },
  };
  await post(`${url}/tables`, await signCreate(owner, config, "ops"));
  const table: BenchTable = { url, id, owner, seats: [] };
  for (const name of names) {
    const signer = await benchSigner(`seat ${name}`);
    const join = {
      table: id,
      seat: name,
      owner: "ops",
      seat_key: signer.publicKeyText,
      human: false,
      nonce: nonce(),
      expires: Date.now() + 3_600_000,
    };
    await post(`${url}/tables/${id}/join`, await signJoin(owner, join, { summary: name }));
    table.seats.push({ name, signer });
  }
  return table;
}

/** `count` signed say submissions for `seat`, each `bodyChars` long. */
export async function presign(
  table: BenchTable,
  seat: BenchSeat,
  count: number,
  bodyChars = 80,
): Promise<SubmitRequest[]> {
  const body = "x".repeat(bodyChars);
  const out: SubmitRequest[] = [];
  for (let i = 0; i < count; i += 1) {
    out.push(
      await signSubmission(seat.signer, { table: table.id, seat: seat.name, kind: "say", body, nonce: nonce() }),
    );
  }
  return out;
}

/** A fresh 18-byte random nonce, base64url. */
export function nonce(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(18)));
}
