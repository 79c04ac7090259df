/**
 * A market member's commands in the market's chat group (docs/CHAT-APPS.md "Groups"): `/sell` and
 * `/want` post a listing, `/listings` and `/mine` read the live ones, `/withdraw #n` takes one of
 * the member's own down, `/join` says how to take part. The text after the verb is kept as written
 * (a listing's words are the member's, judged later: listing-text.ts); nothing else is read from it.
 */

/** The group verbs, as typed. */
export const GROUP_VERBS = ["/sell", "/want", "/listings", "/mine", "/withdraw", "/join"] as const;
export type GroupVerb = (typeof GROUP_VERBS)[number];

/** A group command: its verb and the text after it (trimmed; "" when none). */
export interface GroupCommand {
  name: "group";
  verb: GroupVerb;
  arg: string;
}

/** The group command `text` is (its verb in any case, optionally `@bot`), or null for any other text. */
export function parseGroupCommand(text: string): GroupCommand | null {
  const match = /^\s*(\/[A-Za-z]+)(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/.exec(text);
  const verb = match ? GROUP_VERBS.find((v) => v === match[1]!.toLowerCase()) : undefined;
  return verb === undefined ? null : { name: "group", verb, arg: (match![2] ?? "").trim() };
}

/**
 * A group command from a slash command's name and its named options (a platform whose commands
 * carry options: `item`, `price`, `category` for a listing, `listing` for a withdrawal), or null
 * for a name that is no group verb.
 */
export function groupCommandOf(name: string | undefined, option: (name: string) => string): GroupCommand | null {
  const verb = GROUP_VERBS.find((v) => v === `/${name ?? ""}`);
  if (verb === undefined) return null;
  const category = option("category");
  const parts = [
    option("item"),
    option("price"),
    category === "" ? "" : `#${category.replace(/^#/, "")}`,
    option("listing"),
  ];
  return { name: "group", verb, arg: parts.filter((p) => p !== "").join(" ") };
}
