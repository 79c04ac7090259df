/**
 * Hibernatable WebSocket sessions (docs/SPEC.md §6.3). Each socket's small attachment holds its
 * challenge, its seat (or, for an owner session, its owner) once authenticated, and the last seq
 * it was sent, so pushes after a wake neither skip nor repeat entries. Seat sockets submit entries
 * and their pushes apply the seat's visibility (entries it may not read go out as `{ seq, leaf }`);
 * owner sessions approve and read everything. Frames are parsed by schema, never cast. A seat
 * socket whose key its owner revoked (§5.13) is closed with E_REVOKED the moment the revocation is
 * appended, and never authenticates again.
 */
import { toBase64url, utf8 } from "../../../src/protocol/encoding/bytes.js";
import { httpStatusOf, schemaError, TrestleError, wsCloseCodeOf } from "../../../src/protocol/errors.js";
import { checkInboundJson, parseJsonText } from "../../../src/protocol/encoding/inbound-json.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { ClientFrameSchema, FrameWithIdSchema } from "../../../src/protocol/schemas/ws.js";
import { toTrestleError } from "../../result.js";
import { principalKey } from "../signing/auth.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { attach, sessionAttachmentOf, type SessionAttachment } from "../sockets/attachment.js";
import { catchUp, send } from "../sockets/fan-out.js";
import type { TableContext } from "../context.js";
import { approve, submit } from "../writing/submit.js";
import { closeOverLimit, refusedUpgrade } from "../../limits/refuse-socket.js";
import { PUBLIC_TAG } from "../reading/public-read.js";
import type { TableLimits } from "../limits.js";
import { revocationOf, revokedError } from "../../../src/protocol/policy/seat-revoke.js";
import type { RevokedKeyState } from "../../../src/protocol/policy/state.js";
import { requireSigned } from "../signing/revoked-signer.js";

// A socket that has not answered by its deadline timed out, it was not refused: a new socket gets
// a fresh challenge, so the socket is closed with a code clients retry (4408, §6.3) and no error
// frame (an error frame or 4401 would end their session for good).
const CHALLENGE_EXPIRED_CLOSE = 4408;

/** The sockets of one table. */
export class Sessions {
  /** The earliest authentication deadline of a socket not yet authenticated; undefined until known after a wake. */
  private deadline: number | null | undefined;

  constructor(private readonly ctx: DurableObjectState) {}

  /**
   * Opens a seat or owner socket unless the table already holds `sockets_per_table` of them (then a
   * socket that only carries the refusal, 4429); returns the answer and the new socket's
   * authentication deadline, for the alarm (null when refused).
   */
  open(table: string, now: number, limits: TableLimits): { response: Response; deadline: number | null } {
    const open = this.ctx.getWebSockets().length - this.ctx.getWebSockets(PUBLIC_TAG).length;
    const over = limits.capped("sockets_per_table", open, `table ${table}`);
    if (over) return { response: refusedUpgrade(over), deadline: null };
    const authMs = limits.values.socket_auth_ms;
    const response = this.accept(table, now);
    this.expect(now, authMs);
    return { response, deadline: now + authMs };
  }

  /** Accepts an upgrade: the socket is hibernatable and is sent a fresh challenge at once. */
  private accept(table: string, now: number): Response {
    const pair = new WebSocketPair();
    const server = pair[1];
    this.ctx.acceptWebSocket(server);
    const challenge = toBase64url(crypto.getRandomValues(new Uint8Array(24)));
    attach(server, { challenge, issued: now, seat: null, cursor: 0, owner: null });
    send(server, { type: "challenge", table, challenge });
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** Notes that a socket accepted at `issued` must authenticate by `issued + authMs`, for `authDeadline`. */
  private expect(issued: number, authMs: number): void {
    if (this.deadline !== undefined && (this.deadline === null || issued + authMs < this.deadline))
      this.deadline = issued + authMs;
  }

  /** The earliest deadline of a socket still to authenticate, or null; O(1) but for the first call after a wake, which reads every socket. */
  authDeadline(authMs: number): number | null {
    if (this.deadline === undefined) this.deadline = this.pendingDeadline(authMs, -Infinity);
    return this.deadline;
  }

  /**
   * Closes every socket that has not authenticated by its deadline (4408), whether or not it ever
   * sent anything, and returns the next deadline. Run by the table's alarm, which a hibernating
   * object still gets (it has no timers).
   */
  expireUnauthenticated(now: number, authMs: number): number | null {
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = pending(ws);
      if (attachment && attachment.issued + authMs <= now)
        ws.close(CHALLENGE_EXPIRED_CLOSE, "the authentication deadline passed; reconnect");
    }
    this.deadline = this.pendingDeadline(authMs, now);
    return this.deadline;
  }

  private pendingDeadline(authMs: number, after: number): number | null {
    let earliest: number | null = null;
    for (const ws of this.ctx.getWebSockets()) {
      const deadline = (pending(ws)?.issued ?? -Infinity) + authMs;
      if (deadline > after && (earliest === null || deadline < earliest)) earliest = deadline;
    }
    return earliest;
  }

  /**
   * Handles one client frame. Until the socket is authenticated, the only frame it may send is a
   * well-formed answer to the challenge: any refusal before then is E_AUTH and closes with 4401.
   */
  async message(ws: WebSocket, data: string | ArrayBuffer, t: TableContext): Promise<void> {
    let raw: unknown;
    let id: string | undefined;
    try {
      const text = frameText(data);
      raw = parseJsonText(text);
      checkInboundJson(text);
      const frame = ClientFrameSchema.safeParse(raw);
      if (!frame.success) throw schemaError(frame.error.issues, "frame");
      const attachment = sessionAttachmentOf(ws);
      if (attachment === null)
        throw new TrestleError("E_INTERNAL", "a socket without a session reached the session frames");
      const f = frame.data;
      if (f.type === "auth") return await this.authenticate(ws, attachment, { seat: f.seat }, f, t);
      if (f.type === "owner_auth") return await this.authenticate(ws, attachment, { owner: f.owner }, f, t);
      id = f.id;
      const owner = attachment.owner ?? null;
      if (attachment.seat === null && owner === null) throw new TrestleError("E_AUTH", "answer the challenge first");
      const revoked = t.state ? revokedSocket(attachment, t.state) : undefined;
      if (revoked) return closeOverLimit(ws, revokedError(revoked));
      if (f.type === "approve") {
        if (owner === null)
          throw new TrestleError("E_FORBIDDEN", "approvals come from the owner's session, not a seat's");
        if (f.request.owner !== owner) throw new TrestleError("E_FORBIDDEN", `this session speaks for owner ${owner}`);
        const { seq, head } = await approve(t, { parsed: f.request });
        return send(ws, { type: "ack", id, seq, head });
      }
      if (f.request.submission.seat !== attachment.seat) {
        throw new TrestleError(
          "E_FORBIDDEN",
          attachment.seat ? `this socket speaks for ${attachment.seat}` : "an owner session does not speak for a seat",
        );
      }
      const { seq, head } = await submit(t, { parsed: f.request });
      send(ws, { type: "ack", id, seq, head });
    } catch (error) {
      const err = beforeAuth(toTrestleError(error), sessionAttachmentOf(ws));
      id ??= frameId(raw);
      send(
        ws,
        id === undefined
          ? { type: "error", error: err.toEnvelope().error }
          : { type: "error", id, error: err.toEnvelope().error },
      );
      if (err.code === "E_AUTH") ws.close(wsCloseCodeOf("E_AUTH"), err.message.slice(0, 120));
      if (err.code === "E_REVOKED") ws.close(wsCloseCodeOf("E_REVOKED"), `E_REVOKED: ${err.message}`.slice(0, 120));
    }
  }

  private async authenticate(
    ws: WebSocket,
    attachment: SessionAttachment,
    principal: Principal,
    frame: { sig: string; cursor?: number | undefined },
    t: TableContext,
  ): Promise<void> {
    const state = t.state;
    if (!state) throw new TrestleError("E_TABLE_NOT_FOUND");
    if (attachment.seat !== null || (attachment.owner ?? null) !== null)
      throw new TrestleError("E_SCHEMA", "already authenticated");
    if (t.now() - attachment.issued > t.limits.values.socket_auth_ms)
      return ws.close(CHALLENGE_EXPIRED_CLOSE, "the challenge expired; reconnect");
    const key = principalKey(state, principal);
    const statement = { scope: "ws", table: state.table, ...principal, challenge: attachment.challenge };
    const seatName = "seat" in principal ? principal.seat : null;
    const signed = { key, seat: seatName, purpose: "auth", statement, sig: frame.sig } as const;
    await requireSigned(state, signed, {
      code: "E_AUTH",
      message: `the challenge answer does not verify for that ${seatName === null ? "owner" : "seat"}`,
    });
    const over = t.limits.capped(
      "sockets_per_seat",
      this.socketsOf(principal, ws),
      "seat" in principal ? `seat ${principal.seat}` : `owner ${principal.owner}`,
    );
    if (over) return closeOverLimit(ws, over);
    const cursor = Math.min(frame.cursor ?? 0, state.seq);
    const seat = "seat" in principal ? principal.seat : null;
    const owner = "owner" in principal ? principal.owner : null;
    attach(ws, { ...attachment, seat, owner, cursor, ...(seat === null ? {} : { key }) });
    // Its deadline no longer counts; the next one is found again when needed.
    if (this.deadline === attachment.issued + t.limits.values.socket_auth_ms) this.deadline = undefined;
    const head = await t.currentHead();
    send(
      ws,
      "seat" in principal
        ? { type: "welcome", seat: principal.seat, cursor, head }
        : { type: "owner_welcome", owner: principal.owner, cursor, head },
    );
    await catchUp(ws, head, t);
  }

  /** Authenticated sockets speaking for `principal`, other than `except`. */
  private socketsOf(principal: Principal, except: WebSocket): number {
    let count = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = ws === except ? null : sessionAttachmentOf(ws);
      if ("seat" in principal ? attachment?.seat === principal.seat : attachment?.owner === principal.owner) count += 1;
    }
    return count;
  }

  /** Closes every seat socket whose key was revoked (an E_REVOKED error frame, then 4403 with reason E_REVOKED): run as soon as a revocation is appended. */
  closeRevoked(state: TableState): void {
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = sessionAttachmentOf(ws);
      const revoked = attachment ? revokedSocket(attachment, state) : undefined;
      if (revoked) closeOverLimit(ws, revokedError(revoked));
    }
  }

  /** Owners who can answer an approval now: a live owner session, or a socket of one of their present human seats. */
  answerers(state: TableState): Set<string> {
    const owners = new Set<string>();
    for (const ws of this.ctx.getWebSockets()) {
      const attachment = sessionAttachmentOf(ws);
      if (attachment?.owner) owners.add(attachment.owner);
      const seat =
        attachment?.seat && !revokedSocket(attachment, state) ? own(state.seats, attachment.seat) : undefined;
      if (seat?.human && seat.left === null) owners.add(seat.owner);
    }
    return owners;
  }
}

/** A client frame's text: at most LIMITS.request_bytes UTF-8 bytes, and text, not binary. */
function frameText(data: string | ArrayBuffer): string {
  const over = typeof data === "string" ? utf8Over(data, LIMITS.request_bytes) : data.byteLength > LIMITS.request_bytes;
  if (over) throw new TrestleError("E_TOO_LARGE", `frames are limited to ${LIMITS.request_bytes} bytes`);
  if (typeof data !== "string") throw new TrestleError("E_SCHEMA", "frames are JSON text");
  return data;
}

/** Whether `text` is over `limit` UTF-8 bytes; encoded only when its length leaves that open (a UTF-16 code unit is 1 to 3 UTF-8 bytes). */
function utf8Over(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return false;
  return text.length > limit || utf8(text).byteLength > limit;
}

/** Answers a frame over the socket's rate with an error frame (carrying the frame's `id` when it has one); the frame is not handled. */
export function refuseFrame(ws: WebSocket, data: string | ArrayBuffer, error: TrestleError): void {
  let raw: unknown;
  try {
    raw = typeof data === "string" ? parseJsonText(data) : undefined;
  } catch {
    raw = undefined;
  }
  const id = frameId(raw);
  send(
    ws,
    id === undefined
      ? { type: "error", error: error.toEnvelope().error }
      : { type: "error", id, error: error.toEnvelope().error },
  );
}

/** The attachment of a seat or owner socket that has not authenticated yet; null for any other socket (public ones included). */
function pending(ws: WebSocket): SessionAttachment | null {
  const attachment = sessionAttachmentOf(ws);
  return attachment !== null && attachment.seat === null && (attachment.owner ?? null) === null ? attachment : null;
}

/** The revocation of the key a seat socket speaks with; undefined for owner, public and unauthenticated sockets and for live keys. */
function revokedSocket(attachment: SessionAttachment, state: TableState): RevokedKeyState | undefined {
  if (!attachment.seat) return undefined;
  const key = attachment.key ?? own(state.seats, attachment.seat)?.key;
  return key === undefined ? undefined : revocationOf(state, key);
}

/** A refusal as the socket gets it: before the challenge is answered, every refusal of the client's but E_REVOKED is E_AUTH (§6.3). */
function beforeAuth(err: TrestleError, attachment: SessionAttachment | null): TrestleError {
  const authenticated = attachment !== null && (attachment.seat !== null || (attachment.owner ?? null) !== null);
  if (authenticated || err.code === "E_AUTH" || err.code === "E_REVOKED" || httpStatusOf(err.code) >= 500) return err;
  return new TrestleError("E_AUTH", `not an answer to the challenge: ${err.message}`, err.details);
}

/** The `id` of a frame that did not parse, when it has a usable one, so its sender can match the error. */
function frameId(raw: unknown): string | undefined {
  const parsed = FrameWithIdSchema.safeParse(raw);
  return parsed.success ? parsed.data.id : undefined;
}
