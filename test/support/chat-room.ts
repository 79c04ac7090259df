/**
 * The chat-approval room the workers tests share (docs/SPEC.md §5.6, §11.6): ops creates an open
 * table where x (tao) and y (jenny) sit; jenny's chat_approve rules, her endorsement and her
 * approvals setting as a test asks. Helpers bind and prove jenny's channels, propose effects, and
 * read entries and task states back.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { expect } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import {
  canonicalSha256,
  type ChatPlatform,
  type Effect,
  type Lang,
  type Signer,
  type TableConfig,
} from "../../src/protocol/index.js";
import { bindVia, drain } from "./chat-driver.js";
import { RelayHttp } from "./relay-http.js";
import { keyOf } from "./table-fixture.js";

/** The relay under test. */
export const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
/** The table's signed head. */
export const head = async (table: string) => (await relay.request("GET", `/tables/${table}/head`)).body;
/** Resolves once the table's owner notifications reached the owners' objects. */
export const settle = (table: string) =>
  runInDurableObject(env.TABLES.getByName(table), (t: TableDO) => t.table.noticesSettled());

/** An effect jenny's default rules cover, one they do not, and one of tao's. */
export const CARD: Effect = {
  owner: "jenny",
  resource: "taskboard",
  action: "create_card",
  args: { title: "ship #459" },
};
export const DELETE: Effect = { owner: "jenny", resource: "taskboard", action: "delete_card", args: { id: 7 } };
export const MERGE: Effect = { owner: "tao", resource: "github:tao/app", action: "merge", args: { pr: 459 } };

/** How jenny sits in a room. */
export interface RoomOptions {
  /** jenny's chat_approve rules (default: create_* on taskboard); null for none. */
  rules?: TableConfig["owners"][string]["chat_approve"] | null;
  /** Whether jenny's join signs the config (default true). */
  endorsed?: boolean;
  /** jenny's `approvals` setting (default live: she needs a proven channel). */
  approvals?: "live" | "async";
}

/** An open room created by ops: x (tao) and y (jenny) seated; jenny's rules as `options` say. */
export async function room(id: string, options: RoomOptions = {}) {
  const k = {
    tao: await keyOf(`owner:${id}:tao`),
    jenny: await keyOf(`owner:${id}:jenny`),
    ops: await keyOf(`owner:${id}:ops`),
    x: await keyOf(`seat:${id}:x`),
    y: await keyOf(`seat:${id}:y`),
  };
  const rules = options.rules === undefined ? [{ resource: "taskboard", action: "create_*" }] : options.rules;
  const config: TableConfig = {
    id,
    topic: "Who updates the taskboard?",
    owners: {
      tao: { public_key: k.tao.publicKeyText, approvals: "async" },
      jenny: {
        public_key: k.jenny.publicKeyText,
        ...(rules ? { chat_approve: rules } : {}),
        ...(options.approvals ? { approvals: options.approvals } : {}),
      },
      ops: { public_key: k.ops.publicKeyText },
    },
    seats: { x: { owner: "tao" }, y: { owner: "jenny" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 50 }] },
  };
  expect((await relay.create(k.ops, "ops", config)).status).toBe(201);
  expect((await relay.join(id, k.tao, "tao", "x", k.x)).status).toBe(201);
  const endorse = (options.endorsed ?? true) ? { configSha256: canonicalSha256(config) } : {};
  expect((await relay.join(id, k.jenny, "jenny", "y", k.y, endorse)).status).toBe(201);
  await settle(id);
  return k;
}

/** The keys of a room. */
export type Room = Awaited<ReturnType<typeof room>>;

/** Binds `account` on `platform` to `owner` and delivers the channel's first message, so it is proven. */
export async function bound(
  platform: ChatPlatform,
  owner: Signer,
  account: string,
  chat = account,
  lang: Lang = "en",
): Promise<void> {
  await bindVia(platform, owner, account, chat, lang);
  await drain(owner.publicKeyText);
}

/** x proposes `effects`; the approval request reaches jenny's channels. Returns the task id. */
export async function proposed(id: string, k: Room, effects: Effect[] = [CARD]): Promise<string> {
  const reply = await relay.say(id, k.x, { seat: "x", kind: "proposal", body: "put #459 on the board", effects });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  await settle(id);
  await drain(k.jenny.publicKeyText);
  return `${reply.body.seq}.jenny`;
}

/** The table's entries as owner ops reads them. */
export async function entries(id: string, k: Room) {
  return (await relay.read(id, `/tables/${id}/entries`, k.ops, { owner: "ops" })).body.items as Record<
    string,
    unknown
  >[];
}

/** Task `task`'s state as jenny reads it. */
export async function taskState(id: string, k: Room, task: string): Promise<string> {
  const tasks = (await relay.read(id, `/tables/${id}/tasks`, k.jenny, { owner: "jenny" })).body.items as {
    id: string;
    state: string;
  }[];
  return tasks.find((t) => t.id === task)!.state;
}

/** One chat account per platform numbered from `base`: [platform, account, chat] (on Discord the chat is a channel of its own). */
export function accountsFrom(base: number): readonly (readonly [ChatPlatform, string, string])[] {
  return [
    ["telegram", String(base), String(base)],
    ["line", `U${base + 1}`, `U${base + 1}`],
    ["discord", String(base + 2), String(900_000 + base + 2)],
  ];
}
