/**
 * One small adapter over the two WebSocket implementations the client runs on: the `ws` package
 * in Node (every version: Node 22's global WebSocket, undici's, offers permessage-deflate and has
 * no option to stop it, decision 0541) and the global WHATWG WebSocket elsewhere (browsers, Deno,
 * workerd). Both are reduced to text frames in, text frames out, and one close.
 * Each socket sends the keepalive ping once as it opens: the relay's runtime (workerd) ends the
 * connection of a socket that never sent a frame only about 10 s after the relay closed it, and
 * neither implementation reports a close before its connection has ended (decision 0350). The `ws`
 * package does not offer permessage-deflate: entries are small and compressing every frame cost
 * both ends more CPU than the bytes it saved (decision 0497).
 */
import { PING_FRAME } from "../protocol/schemas/ws.js";

/** A connected socket, reduced to what the client needs. */
export interface WireSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** Callbacks a connection reports to; `onClose` is called exactly once. The answer to the opening ping, `{"type":"pong"}`, comes to `onMessage` like any frame. */
export interface WireHandlers {
  onMessage(text: string): void;
  onClose(code: number, reason: string): void;
}

/** Opens a socket to `url`; resolves once it is open, rejects if it cannot connect. */
export type WireConnect = (url: string, handlers: WireHandlers) => Promise<WireSocket>;

/** The subset of the WHATWG WebSocket both implementations share. */
interface StandardSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
}

type SocketConstructor = new (url: string) => StandardSocket;

/** The `ws` package's socket with its options: permessage-deflate is not offered (decision 0497). */
type WsConstructor = new (url: string, options: { perMessageDeflate: false }) => StandardSocket;

/** Whether this runtime is Node (Deno and Bun say so too, and run `ws`). */
const inNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string";

/** The default connector: in Node the `ws` package without permessage-deflate, elsewhere the runtime's global WebSocket; sends `{"type":"ping"}` as the socket opens. */
export const connectWire: WireConnect = async (url, handlers) => {
  const global = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
  if (global && !inNode) return open(new global(url), handlers);
  const Ws = (await import("ws")).WebSocket as unknown as WsConstructor;
  return open(new Ws(url, { perMessageDeflate: false }), handlers);
};

function open(socket: StandardSocket, handlers: WireHandlers): Promise<WireSocket> {
  return new Promise((resolve, reject) => {
    let opened = false;
    let closed = false;
    socket.addEventListener("open", () => {
      opened = true;
      socket.send(PING_FRAME);
      resolve({ send: (text) => socket.send(text), close: (code, reason) => socket.close(code, reason) });
    });
    socket.addEventListener("message", (event) => {
      handlers.onMessage(textOf(event.data));
    });
    socket.addEventListener("error", () => {
      if (!opened) reject(new Error("the WebSocket connection failed"));
    });
    socket.addEventListener("close", (event) => {
      if (closed) return;
      closed = true;
      if (!opened) reject(new Error(`the WebSocket closed before opening (${event.code})`));
      else handlers.onClose(event.code, event.reason);
    });
  });
}

function textOf(data: unknown): string {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return String(data);
}
