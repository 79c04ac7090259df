/**
 * Signing and checking relay heads. A head commits to the whole ledger prefix up to `seq`
 * through `link`; its signature is domain-separated (purpose `head`).
 */
import { signStatement, verifyStatement, type Signer } from "./crypto.js";
import type { HeadStatement, SignedHead } from "../schemas/head.js";

/** Signs {relay, table, seq, link} with the relay key; `statement.relay` must be the signer's key. */
export async function signHead(signer: Signer, statement: Omit<HeadStatement, "relay">): Promise<SignedHead> {
  const head: HeadStatement = {
    relay: signer.publicKeyText,
    table: statement.table,
    seq: statement.seq,
    link: statement.link,
  };
  return { ...head, sig: await signStatement(signer, "head", head) };
}

/** True iff the head's signature verifies under its own `relay` key (pin that key separately). */
export async function verifyHeadSignature(head: SignedHead): Promise<boolean> {
  const { sig, ...statement } = head;
  return verifyStatement(head.relay, "head", statement, sig);
}

/** True iff two validly signed heads prove a fork: same relay, table and seq, different links. */
export function isForkProof(a: SignedHead, b: SignedHead): boolean {
  return a.relay === b.relay && a.table === b.table && a.seq === b.seq && a.link !== b.link;
}
