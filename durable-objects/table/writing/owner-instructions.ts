/**
 * An owner's instruction to one of its own seats (docs/SPEC.md §5.14, decision 0403): signed by the
 * seat's owner (verified) or relay-attested from a bound chat account (unverified, never in an e2e
 * room). Never a ledger entry: kept in this object's storage, numbered from 1 per seat under
 * `ask:i:<seat>:<n>`, and read only by that seat (GET /tables/:id/instructions?after=N), apart
 * from every peer's text. Each owner-signed nonce is taken once per seat.
 */
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { isE2eRoom } from "../../../src/protocol/policy/sealed.js";
import { isSealedText } from "../../../src/protocol/signing/sealed-text.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import type { ChatPlatform } from "../../../src/protocol/schemas/control.js";
import {
  ownerRequestsFor,
  PlainInstructionTextSchema,
  OwnerInstructionSchema,
  type InstructionList,
  type InstructionResponse,
  type OwnerInstruction,
} from "../../../src/protocol/schemas/owner-ask.js";
import type { TableContext } from "../context.js";
import { requireTable } from "./writes.js";
import { presentSeat, requireOwnerKey } from "./owner-channel.js";

/** How many instructions one read returns at most. */
export const INSTRUCTIONS_PER_READ = 100;

const COUNT = (seat: string) => `ask:i-count:${seat}`;
const KEY = (seat: string, n: number) => `ask:i:${seat}:${String(n).padStart(12, "0")}`;

/** A relay-attested instruction from a bound chat account (the Worker checked the binding to `owner_key`). */
export interface AttestedInstruction {
  seat: string;
  owner_key: string;
  via: ChatPlatform;
  text: string;
}

/** Records the seat's owner's signed instruction; refuses another owner's and one for a seat not at the table. */
export async function instructSeat(t: TableContext, body: unknown): Promise<InstructionResponse> {
  const state = requireTable(t);
  const { instruction, sig } = parseOrThrow(
    ownerRequestsFor(isE2eRoom(state)).instruction,
    body,
    "instruction request",
  );
  if (instruction.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the instruction is for table "${instruction.table}"`);
  const seat = presentSeat(state, instruction.seat);
  if (instruction.owner !== seat.owner)
    throw new TrestleError("E_FORBIDDEN", `only ${seat.owner}, who owns seat ${seat.name}, instructs it`);
  if (!(await verifyStatement(requireOwnerKey(state, seat.owner), "instruction", instruction, sig))) {
    throw new TrestleError("E_BAD_SIGNATURE", "the instruction is not signed by the seat's owner's key");
  }
  if (isE2eRoom(state) && !isSealedText(instruction.text))
    throw new TrestleError("E_PLAINTEXT", "this room is end-to-end encrypted: an instruction is sealed text (e2e1:…)", {
      path: "text",
    });
  if (Math.abs(t.now() - instruction.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the instruction's time is outside the window; check your clock");
  const seen = `ask:i-nonce:${seat.name}:${instruction.nonce}`;
  const earlier = await t.storage.get<number>(seen);
  if (earlier !== undefined) return { n: earlier };
  return {
    n: await append(
      t,
      seat.name,
      (n) => ({ n, verified: true, via: "owner_key", text: instruction.text, at: t.now(), instruction, sig }),
      seen,
    ),
  };
}

/** Records a relay-attested instruction from chat for a seat of the bound owner; never about an e2e room. */
export async function instructAttested(t: TableContext, input: AttestedInstruction): Promise<InstructionResponse> {
  const state = requireTable(t);
  const seat = presentSeat(state, input.seat);
  if (ownerKeyOf(state, seat.owner) !== input.owner_key)
    throw new TrestleError("E_FORBIDDEN", `seat ${seat.name} is not a seat of the owner this chat account is bound to`);
  if (isE2eRoom(state))
    throw new TrestleError(
      "E_NEEDS_SIGNATURE",
      "this room is end-to-end encrypted: instruct your seat on your machine (trestle instruct, trestle view)",
    );
  const text = parseOrThrow(PlainInstructionTextSchema, input.text, "instruction text");
  return { n: await append(t, seat.name, (n) => ({ n, verified: false, via: input.via, text, at: t.now() })) };
}

/** GET /tables/:id/instructions?after=N for the seat itself: its instructions numbered after N, oldest first. */
export async function readInstructions(t: TableContext, seat: string, after: number): Promise<InstructionList> {
  const kept = await t.storage.list<unknown>({
    start: KEY(seat, after + 1),
    prefix: `ask:i:${seat}:`,
    limit: INSTRUCTIONS_PER_READ,
  });
  return {
    instructions: [...kept.values()].map((raw) => parseOrThrow(OwnerInstructionSchema, raw, "kept instruction")),
  };
}

/** Stores the seat's next instruction, numbered one past its last, in one put with its number under `seen` (an owner-signed nonce) when given. */
async function append(
  t: TableContext,
  seat: string,
  make: (n: number) => OwnerInstruction,
  seen?: string,
): Promise<number> {
  const n = ((await t.storage.get<number>(COUNT(seat))) ?? 0) + 1;
  await t.storage.put({ [COUNT(seat)]: n, [KEY(seat, n)]: make(n), ...(seen === undefined ? {} : { [seen]: n }) });
  return n;
}
