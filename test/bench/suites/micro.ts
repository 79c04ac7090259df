/**
 * In-process figures of the protocol code the relay and clients run: Ed25519 with WebCrypto and
 * with @noble/ed25519, a fold of a ledger (the state rebuild on wake), and verifying an export
 * (chain, signatures, heads, full policy replay).
 */
import {
  exportText,
  fold,
  nobleEd25519,
  sha256,
  utf8,
  verifyExport,
  webCryptoEd25519,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, MemoryLedger } from "../../support/table-fixture.js";
import { median, round } from "../harness/stats.js";

/** Operations per second of `op`, run for about `ms` milliseconds (after a short warm-up). */
async function perSecond(op: () => unknown, ms = 1000): Promise<number> {
  for (let i = 0; i < 50; i += 1) await op();
  let count = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    await op();
    count += 1;
  }
  return round((count * 1000) / (performance.now() - t0), 0);
}

/** Median milliseconds of `op` over `runs` runs. */
async function medianMs(op: () => unknown, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await op();
    times.push(performance.now() - t0);
  }
  return round(median(times));
}

/** Ed25519 sign and verify per second, WebCrypto and noble, on a 219-byte statement. */
export async function cryptoFigures() {
  const web = (await webCryptoEd25519())!;
  const message = utf8("trestle/0.1 entry\n" + "x".repeat(200));
  const seed = sha256(utf8("bench"));
  const webSigner = await web.signer(seed);
  const nobleSigner = await nobleEd25519.signer(seed);
  const sig = await webSigner.sign(message);
  return {
    verify_per_s_webcrypto: await perSecond(() => web.verify(webSigner.publicKey, message, sig)),
    verify_per_s_noble: await perSecond(() => nobleEd25519.verify(webSigner.publicKey, message, sig)),
    sign_per_s_webcrypto: await perSecond(() => webSigner.sign(message)),
    sign_per_s_noble: await perSecond(() => nobleSigner.sign(message)),
  };
}

/** Fold and verify figures on an in-memory broadcast table of `turns` turns (say + floor move each). */
export async function ledgerFigures(turns: number) {
  const k = await cast();
  const config: TableConfig = {
    id: "bench-table",
    topic: "benchmark",
    owners: { tao: { public_key: k.tao.publicKeyText }, jenny: { public_key: k.jenny.publicKeyText } },
    seats: { a: { owner: "tao" }, b: { owner: "jenny" } },
    topology: { kind: "broadcast", order: ["a", "b"] },
    termination: { any: [{ max_entries: 20_000 }] },
  };
  const l = new MemoryLedger(k.relay);
  await l.create(k.tao, "tao", config);
  await l.join(k.tao, "tao", "a", k.botTao);
  await l.join(k.jenny, "jenny", "b", k.botJenny);
  const admitStart = performance.now();
  for (let i = 0; i < turns; i++) {
    const [seat, key] = i % 2 === 0 ? (["a", k.botTao] as const) : (["b", k.botJenny] as const);
    await l.submit(key, { seat, kind: "say", body: `turn ${i}: ${"lorem ipsum ".repeat(20)}` });
  }
  const admitMs = (performance.now() - admitStart) / turns;
  const text = exportText({ table: config.id, relay: k.relay.publicKeyText }, l.entries, [await l.head()]);
  return {
    entries: l.entries.length,
    sign_admit_chain_ms_per_turn: round(admitMs, 3),
    fold_ms: await medianMs(() => fold(l.entries), 5),
    verify_export_ms: await medianMs(() => verifyExport(text, { relayKey: k.relay.publicKeyText }), 3),
  };
}
