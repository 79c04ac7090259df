/** A loopback port for a process a test starts on a port of its choosing. */
import { createServer } from "node:net";

/** A loopback port nothing listens on now (the system's pick for a listener closed at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
