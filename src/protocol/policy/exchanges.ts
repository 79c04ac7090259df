/**
 * Request/response protocols (docs/SPEC.md §5.7): a `request` opens an exchange named by its
 * request_id; the first `response` with the same id and type resolves it. `shutdown` asks exactly
 * one seat to leave and `plan_approval` asks for a verdict; a seat approving its own shutdown
 * leaves the table.
 */
import { TrestleError } from "../errors.js";
import { has, own } from "../encoding/records.js";
import type { AuthoredDraft, SystemDraftOf, UnchainedEntry } from "../schemas/entry.js";
import { VERDICT_REQUEST_TYPES } from "../schemas/task.js";
import type { TableState } from "./state.js";

type RequestDraft = Extract<AuthoredDraft, { kind: "request" }>;
type ResponseDraft = Extract<AuthoredDraft, { kind: "response" }>;

/** Throws unless the request id is new, every addressee is seated, and a shutdown names exactly one seat. */
export function checkRequest(state: TableState, draft: RequestDraft): void {
  if (has(state.requests, draft.request_id)) {
    throw new TrestleError("E_NOT_ALLOWED", `request_id "${draft.request_id}" is already used at this table`);
  }
  const absent = draft.to?.find((s) => own(state.seats, s)?.left !== null);
  if (absent !== undefined)
    throw new TrestleError("E_UNKNOWN_SEAT", `"to" names "${absent}", who is not at this table`);
  if (draft.type === "shutdown" && draft.to?.length !== 1) {
    throw new TrestleError("E_NOT_ALLOWED", 'a shutdown request names exactly one seat in "to"');
  }
}

/** Throws unless the response answers an open request of the same type, as one of its addressees. */
export function checkResponse(state: TableState, draft: ResponseDraft): void {
  const request = own(state.requests, draft.request_id);
  if (!request) throw new TrestleError("E_UNKNOWN_REQUEST", `no request "${draft.request_id}" at this table`);
  if (request.type !== draft.type) {
    throw new TrestleError("E_WRONG_RESPONSE_TYPE", `request "${draft.request_id}" is a ${request.type} request`, {
      type: request.type,
    });
  }
  if (request.resolved !== null) {
    throw new TrestleError(
      "E_ALREADY_RESOLVED",
      `request "${draft.request_id}" was answered at entry ${request.resolved}`,
      {
        resolved: request.resolved,
      },
    );
  }
  const allowed = request.to ? request.to.includes(draft.seat) : draft.seat !== request.seat;
  if (!allowed) {
    const who = request.to ? request.to.join(", ") : `a seat other than ${request.seat}`;
    throw new TrestleError("E_FORBIDDEN", `request "${draft.request_id}" is answered by ${who}`);
  }
  if (VERDICT_REQUEST_TYPES.has(draft.type) && draft.verdict === undefined) {
    throw new TrestleError("E_SCHEMA", `a ${draft.type} response needs a verdict (approve or reject)`, {
      issues: [{ path: "submission.verdict", message: "required" }],
    });
  }
}

/** Records a request or resolves one (the entry was admitted); mutates `state`. */
export function applyRequestEntry(state: TableState, entry: UnchainedEntry): void {
  if (entry.kind === "request") {
    state.requests[entry.request_id] = {
      seq: entry.seq,
      seat: entry.seat,
      type: entry.type,
      to: entry.to ?? null,
      resolved: null,
    };
  } else if (entry.kind === "response") {
    const request = own(state.requests, entry.request_id);
    if (request) request.resolved = entry.seq;
  }
}

/** The seat_left a response causes: the addressee approving its own shutdown leaves. */
export function* requestConsequences(state: TableState, entry: UnchainedEntry): Generator<SystemDraftOf<"seat_left">> {
  if (entry.kind !== "response" || entry.type !== "shutdown" || entry.verdict !== "approve") return;
  yield {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "seat_left",
    data: { seat: entry.seat, reason: "shutdown" },
    author: null,
  };
}
