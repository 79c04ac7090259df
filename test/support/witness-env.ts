/** The witness Worker's settings under test (vitest.config.ts): a fixed key and name, witnessing the test logs of WITNESS_TEST_ORIGINS. */
import { toBase64url } from "../../src/protocol/index.js";
import { testLog } from "./witness-log.js";

/** The origins the Worker under test witnesses, each a testLog of seed byte 1. */
export const WITNESS_TEST_ORIGINS = ["relay.example.com/tables/witnessed", "relay.example.com/tables/evicted"] as const;

/** The test witness's seed, base64url (32 bytes of 0x2a). */
export const WITNESS_TEST_SEED = toBase64url(new Uint8Array(32).fill(0x2a));

/** WITNESS_NAME, WITNESS_SIGNING_KEY and WITNESS_LOGS for the Worker under test. */
export async function witnessBindings(): Promise<Record<string, string>> {
  const logs = await Promise.all(WITNESS_TEST_ORIGINS.map((origin) => testLog(origin, 1)));
  return {
    WITNESS_NAME: "witness.test/w1",
    WITNESS_SIGNING_KEY: WITNESS_TEST_SEED,
    WITNESS_LOGS: logs.map((l) => l.entry).join("\n"),
  };
}
