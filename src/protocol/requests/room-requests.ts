/**
 * Building a room's signed requests (client side, docs/SPEC.md §5.10): the creator's invites and
 * ejections (purpose `room`) and a seat's note to its owner (purpose `note`). Pure given the key;
 * the caller supplies ids, nonces and times.
 */
import { signStatement, type Signer } from "../signing/crypto.js";
import { parseOrThrow } from "../errors.js";
import {
  EjectStatementSchema,
  InviteStatementSchema,
  NoteStatementSchema,
  type EjectRequest,
  type EjectStatement,
  type InviteRequest,
  type InviteStatement,
  type NoteRequest,
  type NoteStatement,
} from "../schemas/room.js";

/** The creator's invite request (a rotation when `replaces` is set). */
export async function signInvite(
  creatorSigner: Signer,
  fields: Omit<InviteStatement, "scope">,
): Promise<InviteRequest> {
  const statement = parseOrThrow(InviteStatementSchema, { scope: "invite", ...fields }, "invite statement");
  return { statement, sig: await signStatement(creatorSigner, "room", statement) };
}

/** The creator's request to eject `seat`. */
export async function signEject(creatorSigner: Signer, fields: Omit<EjectStatement, "scope">): Promise<EjectRequest> {
  const statement = parseOrThrow(EjectStatementSchema, { scope: "eject", ...fields }, "eject statement");
  return { statement, sig: await signStatement(creatorSigner, "room", statement) };
}

/** A seat's note to its owner, signed with the seat key. */
export async function signNote(seatSigner: Signer, fields: Omit<NoteStatement, "scope">): Promise<NoteRequest> {
  const note = parseOrThrow(NoteStatementSchema, { scope: "owner_note", ...fields }, "note");
  return { note, sig: await signStatement(seatSigner, "note", note) };
}
