/**
 * Taking custody of a table here (docs/SPEC.md §8.4, decision 0290): an import, or a mirror
 * promoted. The table must be a replica on this relay (replica.ts) whose chain ends exactly where
 * the owners' custody statement says, the statement must name this relay's key, and more than half
 * of the owners must have signed it (admit judges that, so every verifier does too). The relay
 * adds its own signature and the past relay's head over the last entry, appends the custody entry
 * through the ordinary write path, and ends read-only mode in the same batch of writes. From then
 * on the table takes writes here, with heads signed by this relay.
 */
import { canonicalize } from "../../../src/protocol/encoding/canonical.js";
import { signStatement, verifyStatement, type Signer } from "../../../src/protocol/signing/crypto.js";
import { custodyDraft, custodyStatementOf, custodyStatementsOf } from "../../../src/protocol/signing/custody.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { CustodyRequestSchema, type CustodyOwner } from "../../../src/protocol/schemas/custody.js";
import { checkSignature, admitAndAppend, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";

/** Appends the custody entry for an owners' custody request, signed by `signer` (this relay's key); a retry returns the first entry. */
export async function writeCustody(t: TableContext, body: unknown, signer: Signer): Promise<WriteOutcome> {
  const { statement, owners } = parseOrThrow(CustodyRequestSchema, body, "custody request");
  const state = requireTable(t);
  if (statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the custody statement is for table "${statement.table}"`);
  const recorded = t.ledger.byNonce(`custody:${statement.seq}`);
  if (
    recorded &&
    recorded.kind === "system" &&
    recorded.subkind === "custody" &&
    canonicalize(custodyStatementOf(recorded)) === canonicalize(statement)
  ) {
    return { primary: recorded, appended: [] };
  }
  if (!t.replica.mirror)
    throw new TrestleError("E_NOT_ALLOWED", `this relay holds table ${state.table} already`, { relay: state.relay });
  if (statement.to !== signer.publicKeyText) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `the owners authorised custody by relay ${statement.to}; this relay's key is ${signer.publicKeyText}`,
    );
  }
  if (t.ledger.linkAt(statement.seq) !== statement.link) {
    throw new TrestleError(
      "E_FORK",
      `the owners authorised a chain this relay does not hold at entry ${statement.seq}`,
      { seq: t.ledger.seq },
    );
  }
  const head = t.replica.newest();
  if (statement.seq !== t.ledger.seq || !head) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `this relay holds the table up to entry ${t.ledger.seq}; custody passes after its last entry`,
      { seq: t.ledger.seq },
    );
  }
  const signed: CustodyOwner[] = owners.map(({ owner, sig }) => {
    const key = ownerKeyOf(state, owner);
    if (key === undefined) throw new TrestleError("E_NOT_OWNER", `"${owner}" is not an owner of this table`);
    return { owner, key, sig };
  });
  const draft = custodyDraft(statement, head, signed, await signStatement(signer, "custody", statement));
  await checkSignature(draft);
  for (const carried of custodyStatementsOf(draft)) {
    if (!(await verifyStatement(carried.key, carried.purpose, carried.statement, carried.sig))) {
      const who = signed.find((o) => o.key === carried.key && o.sig === carried.sig)?.owner;
      throw new TrestleError(
        "E_BAD_SIGNATURE",
        who ? `owner ${who}'s custody signature does not verify` : "the past relay's head does not verify",
      );
    }
  }
  // No await from here: the custody entry and the end of read-only mode commit together.
  const outcome = admitAndAppend(t, draft);
  t.replica.release();
  return outcome;
}
