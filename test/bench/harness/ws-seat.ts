/**
 * One seat's WebSocket for the load generator: answers the challenge, starts at a given cursor,
 * sends pre-signed submissions with any number in flight, and reports each ack's time and each
 * pushed entries frame's arrival. It parses frames but verifies nothing (the client library
 * does that; here the point is to load the relay, not the generator).
 */
import WebSocket from "ws";
import { signSocketAuth, type SignedHead, type SubmitRequest } from "../../../src/protocol/index.js";
import type { BenchSeat, BenchTable } from "./table.js";

/** What a pushed entries frame carried, and when it arrived (performance.now()). */
export interface Push {
  at: number;
  seqs: number[];
  head: SignedHead;
}

/** A connected, authenticated seat socket. */
export class WsSeat {
  private nextId = 1;
  private readonly waiting = new Map<string, { resolve(seq: number): void; reject(error: Error): void }>();
  /** Called for every pushed entries frame. */
  onPush: ((push: Push) => void) | null = null;

  private constructor(private readonly ws: WebSocket) {}

  /** Opens `seat`'s socket at `table`, resuming after `cursor`; resolves at the welcome. */
  static connect(table: BenchTable, seat: BenchSeat, cursor: number): Promise<WsSeat> {
    const ws = new WebSocket(`${table.url.replace(/^http/, "ws")}/tables/${table.id}/ws`);
    const socket = new WsSeat(ws);
    return new Promise((resolve, reject) => {
      ws.on("error", reject);
      ws.on("message", (data) => {
        const frame = JSON.parse(String(data)) as {
          type: string;
          challenge?: string;
          id?: string;
          seq?: number;
          items?: { seq: number }[];
          head?: SignedHead;
          error?: { code: string; message: string };
        };
        switch (frame.type) {
          case "challenge":
            void signSocketAuth(seat.signer, {
              scope: "ws",
              table: table.id,
              seat: seat.name,
              challenge: frame.challenge!,
            }).then((sig) => ws.send(JSON.stringify({ type: "auth", seat: seat.name, sig, cursor })));
            return;
          case "welcome":
            return resolve(socket);
          case "ack":
            socket.waiting.get(frame.id!)?.resolve(frame.seq!);
            socket.waiting.delete(frame.id!);
            return;
          case "entries":
            socket.onPush?.({ at: performance.now(), seqs: frame.items!.map((i) => i.seq), head: frame.head! });
            return;
          case "error": {
            const error = new Error(`${frame.error!.code}: ${frame.error!.message}`);
            if (frame.id && socket.waiting.has(frame.id)) {
              socket.waiting.get(frame.id)!.reject(error);
              socket.waiting.delete(frame.id);
            } else reject(error);
          }
        }
      });
    });
  }

  /** Sends one signed submission; resolves with its seq at the ack. */
  submit(request: SubmitRequest): Promise<number> {
    const id = `w${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: "submit", id, request }));
    });
  }

  /** Closes the socket. */
  close(): void {
    this.ws.close();
  }
}

/** Sends `requests` over `seat` with `inFlight` outstanding at a time; resolves with each ack's latency in ms. */
export async function pipeline(
  seat: WsSeat | ((request: SubmitRequest) => Promise<unknown>),
  requests: readonly SubmitRequest[],
  inFlight: number,
): Promise<number[]> {
  const send = typeof seat === "function" ? seat : (request: SubmitRequest) => seat.submit(request);
  const latencies: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const start = performance.now();
      await send(request);
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return latencies;
}
