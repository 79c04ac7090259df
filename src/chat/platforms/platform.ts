/**
 * What a chat platform module provides (src/chat/platforms/<name>.ts), so that everything outside
 * it (delivery, the one webhook route, settings, features, bind instructions) goes through the
 * registry (index.ts) and never names a platform. A platform reads its own settings: `settings`
 * parses the Worker environment's optional vars and secrets into the platform, connected.
 */
import type { z } from "zod";
import type { DeliveryResult } from "../delivery.js";
import type { Inbound } from "../inbound.js";
import type { ChatMessage, Fits } from "../message.js";

/** Webhook events one invocation answers at most (one platform API call each); the rest wait for the chat directory's alarm. */
export const EVENTS_PER_INVOCATION = 10;

/** A webhook request as the route hands it over: headers by name, the raw body, the time it came. */
export interface HookRequest {
  header(name: string): string | null;
  body: Uint8Array;
  now: number;
}

/** An event a webhook leaves for later, under the platform's own id for it. */
export interface DeferredEvent {
  id: string;
  event: unknown;
}

/** What a webhook may ask of the relay once the request is verified. */
export interface HookContext {
  /** Does what a verified event asks and returns the reply text in the sender's language, or null to stay silent. */
  handle(inbound: Inbound): Promise<string | null>;
  /** Leaves events for the chat directory's alarm, which hands each back to the platform's `replay`. */
  defer(events: readonly DeferredEvent[]): Promise<void>;
}

/** A platform with this relay's settings for it. */
export interface Connected {
  /** Whether this relay can both send and receive on the platform (the `chat:<platform>` feature). */
  configured: boolean;
  /** Setting values that must never appear in a failure detail shown to owners. */
  secrets: readonly string[];
  /** Sends `message` to `chat`, using the outbox's idempotency `key` as the platform's duplicate guard where it has one. */
  send(chat: string, message: ChatMessage, key: string, signal: AbortSignal): Promise<DeliveryResult>;
  /** One line telling the owner where to send a new bind code (shown by `trestle bind`). */
  instructions(code: string): string;
  /** One line telling a market's creator where to send a new group code: in the group, addressed to the bot. */
  groupInstructions(code: string): string;
  /** The JSON answer to a webhook request; checks the platform's signature over the raw bytes before parsing anything (E_AUTH otherwise). */
  hook(request: HookRequest, context: HookContext): Promise<Record<string, unknown>>;
  /** Answers an event the webhook deferred; only platforms whose hook defers have it. */
  replay?(event: unknown, context: HookContext): Promise<void>;
}

/** How often the relay posts to one group chat: at most `messages` in any `per_ms`. */
export interface GroupPace {
  messages: number;
  per_ms: number;
}

/** One chat platform: how it measures a message, how often it lets a bot post to a group, and its settings read into a connected platform. */
export interface Platform {
  /** Whether a message fits the platform's limits uncut, counted as the platform counts. */
  fits: Fits;
  /** The pace of posts to one group, from the platform's published limits (each module cites them); a market's news to a group is batched to it. */
  groupPace: GroupPace;
  /** Parses the Worker environment (unknown keys ignored) into the platform with its settings. */
  settings: z.ZodType<Connected>;
}
