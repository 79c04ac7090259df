/**
 * A table that moved between relays, built with the real admit and chain code: a debate ordered by
 * relay A (the cast's relay key), handed to relay B by a custody entry its owners authorised, then
 * written on at B. Tests tamper with copies of it.
 */
import {
  custodyDraft,
  custodyStatementFor,
  signCustody,
  signStatement,
  type CustodyOwner,
  type Entry,
  type SignedHead,
  type Signer,
} from "../../../src/protocol/index.js";
import { cast, keyOf, MemoryLedger, type Cast } from "../../support/table-fixture.js";
import { seatedDebate } from "./fixtures.js";

/** The owners' signatures over the custody of `head`'s chain to relay `to`, as the custody entry carries them. */
export async function ownerSignatures(
  k: Cast,
  head: SignedHead,
  to: string,
  owners: readonly ("tao" | "jenny" | "ops")[],
): Promise<CustodyOwner[]> {
  const statement = custodyStatementFor(head, to);
  return Promise.all(
    owners.map(async (owner) => {
      const { sig } = await signCustody(k[owner], owner, statement);
      return { owner, key: k[owner].publicKeyText, sig };
    }),
  );
}

/** Appends the custody entry moving `l`'s table to relay `to` with `owners`' signatures; returns the ledger continued by `to`. */
export async function moveTo(
  l: MemoryLedger,
  to: Signer,
  k: Cast,
  owners: readonly ("tao" | "jenny" | "ops")[] = ["tao", "jenny"],
): Promise<MemoryLedger> {
  const head = await l.head();
  const statement = custodyStatementFor(head, to.publicKeyText);
  const next = l.handOver(to);
  next.append(
    custodyDraft(
      statement,
      head,
      await ownerSignatures(k, head, to.publicKeyText, owners),
      await signStatement(to, "custody", statement),
    ),
  );
  return next;
}

/** A seated debate with one say at relay A (`headA` over its last entry), moved to relay B at entry `custody`, and a say written at B. */
export async function movedDebate() {
  const k = await cast();
  const b = await keyOf("relay-b");
  const before = await seatedDebate(k);
  await before.submit(k.botTao, { seat: "bot-tao", kind: "say", body: "pro, before the move" });
  const headA = await before.head();
  const after = await moveTo(before, b, k);
  const custody = headA.seq + 1;
  await after.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con, at the new relay" });
  return {
    k,
    a: k.relay,
    b,
    before,
    after,
    headA,
    custody,
    entries: after.entries as Entry[],
    headB: await after.head(),
  };
}
