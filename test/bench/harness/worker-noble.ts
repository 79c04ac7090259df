/**
 * The bench relay with @noble/ed25519 doing every signature in the isolate instead of WebCrypto:
 * what a pure-JavaScript design pays. WebCrypto's Ed25519 is made to fail here before anything
 * signs, so the protocol's self-test falls back to noble (src/protocol/signing/crypto.ts `ed25519()`).
 * Bench only, never deployed.
 */
const prototype = Object.getPrototypeOf(crypto.subtle) as SubtleCrypto;
const importKey = prototype.importKey;
const isEd25519 = (algorithm: unknown) =>
  algorithm === "Ed25519" ||
  (typeof algorithm === "object" && algorithm !== null && (algorithm as { name?: unknown }).name === "Ed25519");
Object.defineProperty(prototype, "importKey", {
  value(this: SubtleCrypto, ...args: Parameters<SubtleCrypto["importKey"]>) {
    return isEd25519(args[2])
      ? Promise.reject(new Error("Ed25519 disabled: noble baseline"))
      : importKey.apply(this, args);
  },
});

export * from "./worker.js";
export { default } from "./worker.js";
