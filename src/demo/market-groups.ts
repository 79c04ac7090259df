/**
 * The market demo's chat groups (docs/CHAT-APPS.md "Groups"): hana makes a Telegram group, a LINE
 * group and a Discord channel the market's front doors with codes her key signs for, typed in each
 * group, so every group hears of the market's listings and deals in its language as the story
 * goes; at the end three members bind their own chat accounts privately and post from the groups,
 * each answered privately, and the demo shows what each group was sent. The platforms are the
 * loopback stand-in (chat-fakes.ts); every webhook to the relay is signed as its platform signs it.
 */
import { DemoError } from "./errors.js";
import { DEMO_BOT, type ChatFakes, type ChatWebhooks, type PostedMessage } from "./chat-fakes.js";
import type { Member } from "./market-cast.js";
import type { MemberMachine } from "./market-member.js";
import type { CliRun } from "./trestle-cli.js";
import type { Transcript } from "./transcript.js";

/** The chat apps' stand-in the relay reaches, and the platforms' webhooks to the relay (main.ts). */
export interface DemoChats {
  fakes: ChatFakes;
  hooks: ChatWebhooks;
}

/** One of the market's groups: where it is, its language, and how people there are named. */
interface DemoGroup {
  platform: PostedMessage["platform"];
  chat: string;
  lang: "en" | "ja" | "zh-Hant";
  name: string;
  /** hana's account there, and the member who posts from it with their account and the private chat the bot has with it. */
  hana: string;
  member: Member;
  account: string;
  privateChat: string;
  post: string;
  /** How often its platform takes a post in a group (docs/CHAT-APPS.md "Groups"): the demo waits for a group posted to every few seconds, not for one posted to once a minute. */
  pace: { seconds: number; waited: boolean };
}

const GUILD = "900000000000000000";
const GROUPS: readonly DemoGroup[] = [
  {
    platform: "telegram",
    chat: "-1009001",
    lang: "en",
    name: "the parents' Telegram group",
    hana: "7001",
    member: "ana",
    account: "7002",
    privateChat: "7002",
    post: "/sell Baby carrier, ergonomic 1200 TWD #baby-gear",
    pace: { seconds: 3, waited: true },
  },
  {
    platform: "line",
    chat: "Cdemoparentsswap",
    lang: "ja",
    name: "the parents' LINE group",
    hana: "Udemohana",
    member: "ben",
    account: "Udemoben",
    privateChat: "Udemoben",
    post: "/want baby carrier 1500 TWD #baby-gear",
    pace: { seconds: 60, waited: false },
  },
  {
    platform: "discord",
    chat: "900000000000000001",
    lang: "zh-Hant",
    name: "the parents' Discord channel",
    hana: "700000000000000001",
    member: "chen",
    account: "700000000000000003",
    privateChat: "800000000000000003",
    post: "/want picture books #books",
    pace: { seconds: 1, waited: true },
  },
];

/** What the groups were sent, for the checks: each group's messages as its readers see them. */
export interface GroupsSeen {
  groups: { platform: PostedMessage["platform"]; lang: string; messages: string[] }[];
  /** What the members' own posts came to: a listing each, answered privately. */
  replies: string[];
}

/** Sends `text` from `account` in `group` (or privately, with `group` null), as its platform delivers it; the reply the sender alone got, if any. */
async function say(
  chats: DemoChats,
  g: DemoGroup,
  account: string,
  text: string,
  inGroup: boolean,
): Promise<string | null> {
  const [verb, ...rest] = text.split(" ");
  if (g.platform === "telegram") {
    const answer = await chats.hooks.telegram(
      Number(account),
      inGroup ? `${verb}@${DEMO_BOT} ${rest.join(" ")}` : text,
      inGroup ? Number(g.chat) : Number(account),
    );
    return typeof answer.text === "string" ? answer.text : null;
  }
  if (g.platform === "line") {
    const before = chats.fakes.to("line", account).length;
    await chats.hooks.line(account, text, inGroup ? g.chat : undefined);
    return chats.fakes.to("line", account)[before] ?? null;
  }
  const name = verb!.slice(1);
  const words = rest.filter((w) => !w.startsWith("#"));
  const category = rest.find((w) => w.startsWith("#"))?.slice(1);
  const options: Record<string, string> =
    name === "bind" ? { code: rest.join("") } : { item: words.join(" "), ...(category ? { category } : {}) };
  const answer = await chats.hooks.discord(
    account,
    inGroup ? g.chat : g.privateChat,
    name,
    options,
    inGroup ? GUILD : undefined,
  );
  const content = (answer.data as { content?: string } | undefined)?.content;
  return content === undefined || content === "…" ? null : content.replace(/\\(.)/g, "$1");
}

/** hana binds the three groups to `market`, each with a code her key signs for, typed there; each group is greeted in its language. */
export async function bindDemoGroups(
  t: Transcript,
  chats: DemoChats,
  market: string,
  cli: (args: readonly string[]) => Promise<CliRun>,
): Promise<void> {
  t.section("hana makes three chat groups the market's front doors");
  for (const [i, g] of GROUPS.entries()) {
    const args = [
      "market",
      "group-code",
      "--table",
      market,
      "--owner",
      "hana",
      "--platform",
      g.platform,
      "--lang",
      g.lang,
    ];
    const run = await t.command(args, () => cli(args), {
      note:
        i === 0
          ? "hana's owner key signs the request: only the market's creator binds its groups"
          : `${g.name}, told things in ${g.lang}`,
      maxLines: 2,
    });
    const code = /^group code for \w+: (\S+)/m.exec(run.stdout)?.[1];
    if (run.code !== 0 || code === undefined)
      throw new DemoError(`trestle market group-code exited ${run.code}: ${run.stderr.trim()}`);
    const reply = await say(chats, g, g.hana, `/bind ${code}`, true);
    t.say(
      `hana types it in ${g.name}; the bot answers her alone: ${firstLine(reply)}`,
      i === 0 ? "the market's ledger records the binding with her signature" : undefined,
    );
  }
  for (const g of GROUPS) {
    if (!(await chats.fakes.until(() => chats.fakes.to(g.platform, g.chat).length > 0, 30_000)))
      throw new DemoError(`${g.name} was never greeted`);
    t.say(`${g.name} is greeted: ${firstLine(chats.fakes.to(g.platform, g.chat)[0] ?? null)}`);
  }
}

/** Three members bind their own accounts privately and post from the groups; the demo then shows what each group was sent. */
export async function groupsCoda(
  t: Transcript,
  chats: DemoChats,
  machines: Record<Member, MemberMachine>,
  cli: (m: MemberMachine, args: readonly string[]) => Promise<CliRun>,
): Promise<GroupsSeen> {
  t.section("from the groups: three members bind their own chat accounts privately, then post where the parents talk");
  const replies: string[] = [];
  const listed: number[] = [];
  for (const [i, g] of GROUPS.entries()) {
    const args = ["bind", g.platform, "--owner", g.member];
    const run = await t.command(args, () => cli(machines[g.member], args), {
      maxLines: 1,
      ...(i === 0 ? { note: `${g.member}'s owner key signs for the code; sent to the bot in a private chat` } : {}),
    });
    const code = /^bind code for \w+: (\S+)/m.exec(run.stdout)?.[1];
    if (run.code !== 0 || code === undefined)
      throw new DemoError(`trestle bind exited ${run.code}: ${run.stderr.trim()}`);
    await say(
      chats,
      g,
      g.account,
      g.platform === "telegram" ? `/start ${code}` : g.platform === "line" ? code : `/bind ${code}`,
      false,
    );
    // The bot proves the new private channel with its first message ("Notifications work") before the member posts.
    if (!(await chats.fakes.until(() => chats.fakes.to(g.platform, g.privateChat).length > 0, 30_000)))
      throw new DemoError(`${g.member}'s private chat on ${g.platform} never got its first message`);
    const reply = await say(chats, g, g.account, g.post, true);
    if (reply === null || !reply.startsWith("Listed"))
      throw new DemoError(`${g.member}'s "${g.post}" in ${g.name} was answered ${JSON.stringify(reply)}`);
    replies.push(reply);
    listed.push(Number(/^Listed #(\d+)/.exec(reply)?.[1]));
    t.say(`${g.member} in ${g.name}: ${g.post}`, "relay-attested, UNVERIFIED: never the member's signature");
    t.say(`the bot answers ${g.member} alone: ${firstLine(reply)}`);
  }
  // A platform that takes a group post every few seconds gets these at once; one that takes a post a minute (LINE: its quota counts a push once per member) within the minute.
  const told = (g: DemoGroup) =>
    listed.every((seq) => chats.fakes.to(g.platform, g.chat).some((m) => m.includes(`#${seq} `)));
  for (const g of GROUPS.filter((x) => x.pace.waited))
    if (!(await chats.fakes.until(() => told(g), 30_000)))
      throw new DemoError(`${g.name} was not told of the members' posts`);
  t.section("what each group was sent: the market's listings and done deals, and nothing else");
  const groups = GROUPS.map((g) => ({
    platform: g.platform,
    lang: g.lang,
    messages: chats.fakes.to(g.platform, g.chat),
  }));
  for (const [i, g] of GROUPS.entries()) {
    const messages = groups[i]!.messages;
    const waiting = told(g)
      ? ""
      : `; ${g.platform} takes a group post every ${g.pace.seconds} s, so the rest follow within that`;
    t.say(`${g.name} (${g.lang}): ${messages.length} messages${waiting}`);
    for (const message of messages.slice(1)) for (const line of message.split("\n")) t.say(`  ${line}`);
  }
  return { groups, replies };
}

function firstLine(text: string | null): string {
  return (text ?? "(nothing)").split("\n")[0]!;
}
