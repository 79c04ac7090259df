/**
 * What each socket of a table remembers across hibernation, its attachment (kept small: the
 * runtime serializes it): a seat or owner socket its challenge, whom it answered it as and the key
 * it used; a public viewer its flag; every socket the last seq it was sent. One type and one
 * reader for every file that keeps or reads one (object/sessions.ts, fan-out.ts, reading/public-read.ts).
 */

/** A seat or owner socket's attachment: `seat` and `owner` stay null until the challenge is answered. */
export interface SessionAttachment {
  challenge: string;
  issued: number;
  seat: string | null;
  cursor: number;
  /** The owner of an owner session (absent on sockets accepted before owner sessions existed). */
  owner?: string | null;
  /** The key a seat socket authenticated with (absent on sockets authenticated before revocations existed). */
  key?: string;
}

/** A public viewer's attachment. */
export interface PublicAttachment {
  public: true;
  cursor: number;
}

/** Any socket's attachment. */
export type SocketAttachment = SessionAttachment | PublicAttachment;

/** Keeps `attachment` on `ws` across hibernation, replacing what it had. */
export function attach(ws: WebSocket, attachment: SocketAttachment): void {
  ws.serializeAttachment(attachment);
}

/** The attachment `attach` last gave `ws`; null for a socket given none. */
export function attachmentOf(ws: WebSocket): SocketAttachment | null {
  return ws.deserializeAttachment() as SocketAttachment | null;
}

/** The attachment of `ws` when it is a seat or owner socket's; null for a public viewer or a socket given none. */
export function sessionAttachmentOf(ws: WebSocket): SessionAttachment | null {
  const attachment = attachmentOf(ws);
  return attachment === null || "public" in attachment ? null : attachment;
}
