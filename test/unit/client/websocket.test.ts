/**
 * The WebSocket adapter (src/client/websocket.ts): in Node, with or without a global WebSocket
 * (Node 22 has undici's, which offers permessage-deflate), it connects with the `ws` package and
 * offers no permessage-deflate (decisions 0497, 0541), so a server that would compress every frame
 * sends them as they are; frames still go both ways and the opening ping is sent.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { connectWire } from "../../../src/client/index.js";

let server: WebSocketServer;
let url: string;
const offered: (string | undefined)[] = [];
const negotiated: string[] = [];

beforeAll(async () => {
  // A server that compresses whatever a client offers to compress.
  server = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: { threshold: 0 } });
  server.on("connection", (socket, request) => {
    offered.push(request.headers["sec-websocket-extensions"]);
    negotiated.push(socket.extensions);
    socket.on("message", (data) => socket.send(`echo ${String(data)}`));
  });
  await once(server, "listening");
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe(`connectWire in Node ${process.versions.node} (a global WebSocket: ${typeof (globalThis as { WebSocket?: unknown }).WebSocket === "function"})`, () => {
  it("offers no permessage-deflate, so nothing is compressed, and frames go both ways", async () => {
    const heard: string[] = [];
    let answered!: () => void;
    const both = new Promise<void>((resolve) => (answered = resolve));
    const wire = await connectWire(url, {
      onMessage: (text) => {
        heard.push(text);
        if (heard.length === 2) answered();
      },
      onClose: () => undefined,
    });
    wire.send("hello");
    await both;
    wire.close();
    expect(offered.at(-1)).toBeUndefined();
    expect(negotiated.at(-1)).toBe("");
    expect(heard).toEqual(['echo {"type":"ping"}', "echo hello"]);
  });
});
