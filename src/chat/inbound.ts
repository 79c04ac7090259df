/**
 * What a verified webhook asks for, after each platform's parser: a command, a button tap, or
 * nothing for us. Command text is attacker-controlled: it is matched against a closed list and
 * its one argument against a strict pattern, never interpreted further.
 */
import type { ChatPlatform } from "../protocol/schemas/control.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { parseCallback, type CallbackData } from "./callback.js";
import { parseOwnerCommand, type OwnerCommand } from "./owner-command.js";
import { parseGroupCommand, type GroupCommand } from "./group-command.js";
import { parseChoice, type ChoiceTap } from "./question.js";

/** A chat command. */
export type Command =
  | { name: "bind"; code: string }
  | { name: "status" }
  | { name: "tables" }
  | { name: "pause"; table: string | null }
  | { name: "resume"; table: string | null }
  | { name: "unbind" }
  | { name: "help" }
  | OwnerCommand
  | GroupCommand;

/** Who wrote, from where, in which language, and the platform's id for this event (for dedupe). */
export interface Sender {
  platform: ChatPlatform;
  account: string;
  /** The chat an owner binding from this event delivers to (for an event from a group, the sender's own private chat where the platform has one). */
  chat: string;
  /** The group chat the event came from (a Telegram group or supergroup, a LINE group, a Discord server's channel), or null for a private chat: a reply to it goes to the sender alone. */
  group: string | null;
  label: string;
  lang: Lang | null;
  eventId: string;
}

/** The platform says the bot can no longer post to a group: it was removed or left (`removed`), or the group moved to a new id (`migrated`). */
export interface GroupGone {
  kind: "group_gone";
  platform: ChatPlatform;
  group: string;
  reason: "removed" | "migrated";
  /** What the platform said, in words (the new id of a migrated group among them). */
  detail: string;
  eventId: string;
}

/** A parsed inbound event. */
export type Inbound =
  | { kind: "command"; sender: Sender; command: Command }
  | { kind: "tap"; sender: Sender; tap: CallbackData | ChoiceTap | null }
  | GroupGone
  | { kind: "ignored"; reason: string };

const CODE_ALPHABET = /^[A-HJ-NP-Z2-9]{8}$/;
const TABLE_ID = /^[a-z0-9][a-z0-9._-]{2,63}$/;

/** A bind code in its canonical `XXXX-XXXX` form, or null: case, spaces and hyphens are forgiven. */
export function normalizeCode(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s-]/g, "");
  return CODE_ALPHABET.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4)}` : null;
}

/** The command in a message's text (leading `/` optional; a bare code means bind), or null. */
export function parseCommandText(text: string): Command | null {
  const owner = parseOwnerCommand(text) ?? parseGroupCommand(text);
  if (owner) return owner;
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length === 0 || words.length > 3) return null;
  const bare = normalizeCode(words.join(""));
  if (bare && !words[0]!.startsWith("/")) return { name: "bind", code: bare };
  const name = words[0]!.replace(/^\//, "").toLowerCase();
  const arg = words.slice(1).join("");
  switch (name) {
    case "start":
    case "bind": {
      const code = normalizeCode(arg);
      return code ? { name: "bind", code } : { name: "help" };
    }
    case "status":
    case "tables":
    case "unbind":
    case "help":
      return { name };
    case "pause":
    case "resume":
      return { name, table: TABLE_ID.test(arg) ? arg : null };
    default:
      return null;
  }
}

/** What a button's data names: an approval's Approve or Reject (callback.ts) or a question's choice (question.ts), or null. */
export function parseTap(data: unknown): CallbackData | ChoiceTap | null {
  return parseCallback(data) ?? parseChoice(data);
}
