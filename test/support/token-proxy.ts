/**
 * A loopback HTTP proxy that adds `trestle mcp --http`'s bearer token to every request, for a
 * client that cannot send one: the official conformance suite takes only a URL. Everything else
 * passes as sent, and the proxy's own host name (`127.0.0.1:<its port>`, `localhost:<its port>`)
 * in Host and Origin is rewritten to the server's, so a foreign Host or Origin reaches the server
 * unchanged and the server's DNS-rebinding checks are what the suite observes. Responses stream
 * back as they come (SSE).
 */
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy: its URL (the server's path) and how to stop it. */
export interface TokenProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 at a free port for the server at `target` with `token`. */
export async function startTokenProxy(target: string, token: string): Promise<TokenProxy> {
  const to = new URL(target);
  let own = 0;
  const rewrite = (value: string | undefined, prefix: string) => {
    for (const name of ["127.0.0.1", "localhost"])
      if (value === `${prefix}${name}:${own}`) return `${prefix}${name}:${to.port}`;
    return value;
  };
  const server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = {
      ...req.headers,
      authorization: `Bearer ${token}`,
      host: rewrite(req.headers.host, ""),
    };
    if (req.headers.origin !== undefined) headers.origin = rewrite(req.headers.origin, "http://");
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  own = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${own}${to.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
