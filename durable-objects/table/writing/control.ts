/**
 * Pause and resume writes (docs/SPEC.md §5.5): an owner-signed control request, or a relay-attested
 * one from a bound chat account (the Worker has already checked the binding). Both go through the
 * same admit as every other write, which lets an owner lift only their own pause; a repeated nonce
 * returns the first entry.
 */
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { controlDraft, controlOwnerByKey } from "../../../src/protocol/policy/pause.js";
import { ControlRequestSchema, type ChatPlatform, type ControlAction } from "../../../src/protocol/schemas/control.js";
import { checkSignature, admitAndAppend, countedOwnerWrite, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";
import { chatEventNonce } from "./chat-nonce.js";

/** A chat app's request to pause or resume, attested by the relay. */
export interface AttestedControl {
  owner_key: string;
  action: ControlAction;
  via: ChatPlatform;
  /** The platform's id for the chat event; the same event always makes the same nonce. */
  event_id: string;
}

/** Appends an owner-signed control. */
export async function writeControl(t: TableContext, body: unknown): Promise<WriteOutcome> {
  const request = parseOrThrow(ControlRequestSchema, body, "control request");
  const state = requireTable(t);
  const { control, sig } = request;
  if (control.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `control is for table "${control.table}"`);
  const draft = controlDraft(state, {
    owner: control.owner,
    action: control.action,
    via: "owner",
    nonce: control.nonce,
    sig,
  });
  await checkSignature(draft);
  return countedOwnerWrite(t, draft, control.owner);
}

/** Appends a relay-attested control for the owner holding `owner_key`: a pause needs their seat here, lifting their own pause does not. */
export function writeAttestedControl(t: TableContext, input: AttestedControl): WriteOutcome {
  const state = requireTable(t);
  const owner = controlOwnerByKey(state, input.owner_key, input.action);
  if (!owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      input.action === "pause" ? "you hold no seat at this table" : "you are not an owner of this table",
    );
  const draft = controlDraft(state, {
    owner,
    action: input.action,
    via: input.via,
    nonce: chatEventNonce("chat-control", input.event_id),
  });
  return admitAndAppend(t, draft);
}
