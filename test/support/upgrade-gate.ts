/**
 * An HTTP proxy in front of a relay that decides how its WebSocket upgrades are answered, for the
 * tests of what a page says about its live connection: plain requests pass through unchanged;
 * an upgrade is passed through, held until the mode becomes "pass" (a relay that accepts late), or
 * refused with 503 (a relay that refuses), as the mode is when it arrives.
 */
import { createServer, request } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** How upgrades are answered. */
export type UpgradeMode = "pass" | "hold" | "refuse";

/** A running gate. */
export interface UpgradeGate {
  /** The proxy's origin: open pages here. */
  url: string;
  /** Answers upgrades this way from now on; "pass" also lets the held ones through. */
  set(mode: UpgradeMode): void;
  /** Resolves once an upgrade is held (mode "hold"). */
  held(): Promise<void>;
  /** How many upgrades were refused so far. */
  refusals(): number;
  close(): Promise<void>;
}

interface Upgrade {
  raw: string;
  head: Buffer;
  socket: Socket;
}

/** Starts a gate on 127.0.0.1 at a free port in front of the relay listening at `port`, in `mode`. */
export async function startUpgradeGate(port: number, mode: UpgradeMode): Promise<UpgradeGate> {
  let current = mode;
  let refused = 0;
  const waiting: Upgrade[] = [];
  const sockets = new Set<Socket>();
  const onHeld: (() => void)[] = [];
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const pass = ({ raw, head, socket }: Upgrade) => {
    const upstream = connect(port, "127.0.0.1");
    track(upstream);
    upstream.write(raw);
    upstream.write(head);
    socket.pipe(upstream).pipe(socket);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  };
  const server = createServer((req, res) => {
    const upstream = request(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connection", track);
  server.on("upgrade", (req, socket: Socket, head: Buffer) => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    const upgrade = { raw: `${lines.join("\r\n")}\r\n\r\n`, head, socket };
    if (current === "pass") return pass(upgrade);
    if (current === "refuse") {
      refused += 1;
      return void socket.end("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    }
    waiting.push(upgrade);
    onHeld.splice(0).forEach((resolve) => resolve());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next) => {
      current = next;
      if (next === "pass") waiting.splice(0).forEach(pass);
    },
    held: () => (waiting.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => onHeld.push(resolve))),
    refusals: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
