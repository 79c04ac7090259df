/**
 * HTTP/1.1 over one raw TCP connection, for tests about the connection itself (what a server does
 * to it after a response): write requests byte for byte, read each response in turn (status,
 * headers, a Content-Length body), and see whether the server closed it.
 */
import { connect, type Socket } from "node:net";

/** One response read off the connection. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A connection to 127.0.0.1:`port`, its responses read in order. */
export class RawConnection {
  private readonly socket: Socket;
  private buffered = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    const end = () => {
      this.ended = true;
      this.wake?.();
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.on("error", end);
  }

  /** Opens the connection. */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes `bytes` (a request or part of one), resolving once the socket took them. */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The next response; null when the server closed the connection before sending one. */
  async response(): Promise<RawResponse | null> {
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  /** Closes the connection from this side. */
  close(): void {
    this.socket.destroy();
  }

  /** A whole response off the front of the buffer, or null while one is incomplete. */
  private parse(): RawResponse | null {
    const end = this.buffered.indexOf("\r\n\r\n");
    if (end < 0) return null;
    const [statusLine = "", ...lines] = this.buffered.subarray(0, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
    );
    const length = Number(headers["content-length"]);
    if (!Number.isSafeInteger(length)) throw new Error(`a response without Content-Length: ${statusLine}`);
    if (this.buffered.length < end + 4 + length) return null;
    const body = this.buffered.subarray(end + 4, end + 4 + length).toString("utf8");
    this.buffered = this.buffered.subarray(end + 4 + length);
    return { status: Number(statusLine.split(" ")[1]), headers, body };
  }
}

/** `body` in chunked transfer coding, in chunks of `size` bytes, with the last chunk. */
export function chunked(body: string, size = 16 * 1024): string {
  const chunks: string[] = [];
  for (let at = 0; at < body.length; at += size) {
    const part = body.slice(at, at + size);
    chunks.push(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
  }
  return `${chunks.join("")}0\r\n\r\n`;
}
