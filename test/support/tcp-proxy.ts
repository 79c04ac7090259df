/**
 * A loopback TCP proxy for tests: forwards to a target port, can cut every open connection at
 * once (a dropped network, a redeploy) and can be pointed at another target (another relay behind
 * the same URL, as a relay operator could do).
 */
import { createServer, connect, type Socket } from "node:net";

/** A running proxy. */
export interface TcpProxy {
  url: string;
  /** Sends new connections to `port`. */
  retarget(port: number): void;
  /** Destroys every open connection (both sides). */
  cut(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 at a free port, forwarding to `target`. */
export async function startProxy(target: number): Promise<TcpProxy> {
  let port = target;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    retarget: (next) => void (port = next),
    cut: () => open.forEach((s) => s.destroy()),
    close: () =>
      new Promise<void>((resolve) => {
        open.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
