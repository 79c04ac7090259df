/**
 * Signed owner-key requests (docs/SPEC.md §11.1, §5.5): bind codes and unbinding (purpose `bind`),
 * owner reads (purpose `auth`, scope `owner_http`), table controls, seat revocations and deletes (purpose `owner`). Pure given
 * the key, nonce and time passed in; `OwnerClient` supplies them.
 */
import { authorizationHeader } from "../protocol/requests/requests.js";
import { signStatement, type Signer } from "../protocol/signing/crypto.js";
import type { ChatPlatform, ControlAction, ControlRequest } from "../protocol/schemas/control.js";
import type { BindRequest, Lang } from "../protocol/schemas/owner.js";
import type { DeleteRequest, DeleteStatement } from "../protocol/schemas/lifetime.js";
import type { SeatRevokeRequest, SeatRevokeStatement } from "../protocol/schemas/revoke.js";

/** A request for a one-time bind code for `platform`, replies in `lang`. */
export async function signBindCode(
  signer: Signer,
  fields: { platform: ChatPlatform; lang: Lang; nonce: string; now: number },
): Promise<BindRequest> {
  const statement = {
    action: "code" as const,
    owner_key: signer.publicKeyText,
    platform: fields.platform,
    lang: fields.lang,
    nonce: fields.nonce,
    ts: fields.now,
  };
  return { statement, sig: await signStatement(signer, "bind", statement) };
}

/** A request to unbind one chat account. */
export async function signUnbind(
  signer: Signer,
  fields: { platform: ChatPlatform; account: string; nonce: string; now: number },
): Promise<BindRequest> {
  const statement = {
    action: "unbind" as const,
    owner_key: signer.publicKeyText,
    platform: fields.platform,
    account: fields.account,
    nonce: fields.nonce,
    ts: fields.now,
  };
  return { statement, sig: await signStatement(signer, "bind", statement) };
}

/** The `Authorization` header value for an owner read of `path` (with query) at `now`. */
export function signOwnerAuth(
  signer: Signer,
  fields: { method: "GET" | "POST"; path: string; now: number },
): Promise<string> {
  return authorizationHeader(signer, {
    scope: "owner_http",
    owner_key: signer.publicKeyText,
    method: fields.method,
    path: fields.path,
    ts: fields.now,
  });
}

/** An owner-signed pause or resume of `table`, as owner `owner` of that table. */
export async function signControl(
  signer: Signer,
  fields: { table: string; owner: string; action: ControlAction; nonce: string },
): Promise<ControlRequest> {
  const control = {
    scope: "table_control" as const,
    table: fields.table,
    owner: fields.owner,
    action: fields.action,
    nonce: fields.nonce,
  };
  return { control, sig: await signStatement(signer, "owner", control) };
}

/** An owner-signed revocation of `owner`'s seat `seat` at `table`, held by `seat_key` (docs/SPEC.md §5.13). */
export async function signRevoke(
  signer: Signer,
  fields: { table: string; owner: string; seat: string; seat_key: string; nonce: string },
): Promise<SeatRevokeRequest> {
  const revoke: SeatRevokeStatement = {
    scope: "seat_revoke",
    table: fields.table,
    owner: fields.owner,
    seat: fields.seat,
    seat_key: fields.seat_key,
    nonce: fields.nonce,
  };
  return { revoke, sig: await signStatement(signer, "owner", revoke) };
}

/** An owner-signed delete of `table`, as its creator `owner`, at `now` (docs/SPEC.md §6.6). */
export async function signDelete(
  signer: Signer,
  fields: { table: string; owner: string; now: number },
): Promise<DeleteRequest> {
  const statement: DeleteStatement = {
    scope: "table_delete",
    table: fields.table,
    owner: fields.owner,
    ts: fields.now,
  };
  return { delete: statement, sig: await signStatement(signer, "owner", statement) };
}
