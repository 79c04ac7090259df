/**
 * A large ledger without a relay: an open room of two seats (s0, s1, owner ops) grown to a given
 * number of entries through the relay's own admit and chain code (table-fixture.ts MemoryLedger),
 * every key a deterministic WebCrypto one so thousands of entries are signed in seconds. For the
 * verify bench (test/bench/verify.ts) and the tests of the parallel verifier.
 */
import {
  ed25519,
  exportText,
  LIMITS,
  sha256,
  utf8,
  type Entry,
  type Signer,
  type TableConfig,
} from "../../src/protocol/index.js";
import { MemoryLedger } from "./table-fixture.js";

/** The grown ledger, its relay key and its export (with one head, over the last entry). */
export interface BigLedger {
  ledger: MemoryLedger;
  relay: Signer;
  entries: Entry[];
  text: string;
}

/** An open room grown to `entries` entries: the table's opening, two joins, then the seats taking turns saying 80 characters. */
export async function bigLedger(entries: number): Promise<BigLedger> {
  const crypto = await ed25519();
  const key = (label: string) => crypto.signer(sha256(utf8(`trestle big export ${label}`)));
  const [relay, owner, s0, s1] = await Promise.all([key("relay"), key("owner"), key("s0"), key("s1")]);
  const config: TableConfig = {
    id: "big-export",
    topic: "a large ledger",
    owners: { ops: { public_key: owner.publicKeyText } },
    seats: { s0: { owner: "ops" }, s1: { owner: "ops" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: LIMITS.entries }] },
  };
  const ledger = new MemoryLedger(relay);
  await ledger.create(owner, "ops", config);
  await ledger.join(owner, "ops", "s0", s0);
  await ledger.join(owner, "ops", "s1", s1);
  const body = "x".repeat(80);
  while (ledger.entries.length < entries) {
    const [seat, signer] = ledger.entries.length % 2 === 0 ? (["s0", s0] as const) : (["s1", s1] as const);
    await ledger.submit(signer, { seat, kind: "say", body });
  }
  return {
    ledger,
    relay,
    entries: ledger.entries,
    text: exportText({ table: config.id, relay: relay.publicKeyText }, ledger.entries, [await ledger.head()]),
  };
}
