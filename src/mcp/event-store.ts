/**
 * The in-memory event store behind resumable Streamable HTTP streams (docs/MCP.md "Over HTTP"):
 * every message the server sends on a stream gets an event id, and a client that lost the
 * stream reconnects with `Last-Event-ID` and receives what it missed. Kept per MCP session in
 * this process only, the newest `keep` events per session; nothing survives a restart.
 */
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

interface StoredEvent {
  id: string;
  stream: string;
  message: JSONRPCMessage;
}

/** Event ids are `<stream>.<n>` with n increasing; replay sends a stream's events after the one named, in order. */
export class MemoryEventStore implements EventStore {
  private next = 0;
  private readonly events: StoredEvent[] = [];

  constructor(private readonly keep = 1000) {}

  /** Stores `message` as the newest event of `stream`, dropping the oldest past `keep`. */
  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.next}`;
    this.events.push({ id, stream, message });
    if (this.events.length > this.keep) this.events.shift();
    return id;
  }

  /** The stream of event `id`, or undefined for an id this store does not hold (the transport answers 400). */
  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === id)?.stream;
  }

  /** Sends every event of `id`'s stream stored after it; returns that stream ("" for an unknown id). */
  async replayEventsAfter(
    id: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === id);
    if (at < 0) return "";
    const stream = this.events[at]!.stream;
    for (const event of this.events.slice(at + 1)) if (event.stream === stream) await send(event.id, event.message);
    return stream;
  }
}
