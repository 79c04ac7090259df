/**
 * OwnerDO: one Durable Object per owner public key (docs/SPEC.md §11), and one per market's chat
 * groups (its group audience, group-audience.ts, whose channels are the groups). A thin shell over the
 * owner's chat bindings (bindings.ts), received events and table list (inbox.ts), the outbox
 * drained by this object's alarm (outbox.ts), and the attempt log with channel health (health.ts).
 * Every method names the owner key it expects; the Worker addresses the object by that key.
 */
import { DurableObject } from "cloudflare:workers";
import { parseOrThrow, TrestleError } from "../../src/protocol/errors.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import {
  NotifyBatchSchema,
  SILENT_NOTIFICATIONS,
  type ApprovalNeeded,
  type OwnerQuestionNotice,
} from "../../src/protocol/schemas/notify.js";
import type { ChannelsResponse, Lang } from "../../src/protocol/schemas/owner.js";
import { chatPlatforms, outboxDelay } from "../settings.js";
import { asResult, type Result } from "../result.js";
import { Bindings, type Channel } from "./bindings.js";
import { AttemptLog } from "./health.js";
import { Inbox, type OwnerTable } from "./inbox.js";
import { BACKOFF_MS, Outbox, type DrainReport } from "./outbox.js";
import { migrateOwner } from "./schema.js";
import { applyGroupEvent, GROUP_EVENTS } from "./group-audience.js";

/** What the `status` and `tables` commands show. */
export interface OwnerSummary {
  channels: number;
  proven: number;
  /** Notices in the outbox not yet delivered (Outbox.pending). */
  pending: number;
  tables: OwnerTable[];
}

/** An approval request a button names, and whether the message tapped offered Approve (it showed every effect in full). */
export interface TappedApproval {
  request: ApprovalNeeded;
  approve_offered: boolean;
}

/** A new binding as the webhook learned it. */
export type NewBinding = Omit<Channel, "delivered" | "last_delivered_at" | "bound_at" | "gone">;

/** The Durable Object for one owner key. */
export class OwnerDO extends DurableObject<Env> {
  private readonly bindings: Bindings;
  private readonly log: AttemptLog;
  /** Whether a drain runs in this instance: its `sending` rows are in flight, not interrupted (a killed object comes back without this). */
  private draining = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateOwner(ctx.storage.sql);
    this.bindings = new Bindings(ctx.storage.sql);
    this.log = new AttemptLog(ctx.storage.sql);
  }

  now(): number {
    return Date.now();
  }

  /** Events from a table after a write: stored once each and queued for every bound channel unless silent; with no channel, only the table list changes. */
  async notify(batch: unknown): Promise<Result<{ queued: number }>> {
    return asResult(async () => {
      const { owner_key, events } = parseOrThrow(NotifyBatchSchema, batch, "notify batch");
      const { inbox, outbox } = this.parts(owner_key);
      const now = this.now();
      let queued = 0;
      for (const event of events) {
        // Only a channel reads a stored event (its outbox row, and the taps and refs of the message sent): an owner
        // with none keeps its table list alone; a market's group events are kept, they make and drop its channels (decision 0533).
        if (!this.bindings.any() && !GROUP_EVENTS.has(event.type)) {
          inbox.heard(event, now);
          continue;
        }
        if (!inbox.add(event, now)) continue;
        // A market's group audience (group-audience.ts): a bound group becomes the one channel its greeting goes to.
        const only = applyGroupEvent(this.bindings, outbox, inbox, event, now);
        if (only !== null && !SILENT_NOTIFICATIONS.has(event.type)) queued += outbox.enqueue(event, now, only);
      }
      if (queued > 0) await this.schedule(outbox);
      return { queued };
    });
  }

  /** Binds a chat account (after its code was redeemed) and queues the message that proves the channel. */
  async bind(ownerKey: string, binding: NewBinding): Promise<Result<{ bound: true }>> {
    return asResult(async () => {
      const { inbox, outbox } = this.parts(ownerKey);
      const now = this.now();
      this.bindings.bind({ ...binding, bound_at: now });
      const test = {
        type: "channel_bound" as const,
        id: `bound:${binding.platform}:${binding.account}:${now}`,
        owner_key: ownerKey,
      };
      inbox.add(test, now);
      outbox.enqueue(test, now, this.bindings.get(binding.platform, binding.account));
      await this.schedule(outbox);
      return { bound: true as const };
    });
  }

  /** Removes a chat account and everything still queued for it. */
  async unbind(ownerKey: string, platform: ChatPlatform, account: string): Promise<Result<{ removed: boolean }>> {
    return asResult(() => {
      const { outbox } = this.parts(ownerKey);
      outbox.forget(platform, account);
      return { removed: this.bindings.unbind(platform, account) };
    });
  }

  /**
   * A market's group the platform said the bot can no longer post to (it was removed, the bot left,
   * or a Telegram group became a supergroup with a new id): the channel is marked gone, its queued
   * news is given up with that reason, and its health says so. A group this audience does not have
   * changes nothing.
   */
  async groupGone(
    audience: string,
    platform: ChatPlatform,
    group: string,
    reason: "removed" | "migrated",
    detail: string,
  ): Promise<Result<{ marked: boolean }>> {
    return asResult(() => {
      const { outbox } = this.parts(audience);
      const channel = this.bindings.get(platform, group);
      if (!channel) return { marked: false };
      outbox.giveUp(channel, reason, detail, this.now());
      return { marked: true };
    });
  }

  /** Whether `account` on `platform` is bound here, and its language. */
  async binding(ownerKey: string, platform: ChatPlatform, account: string): Promise<Result<{ lang: Lang } | null>> {
    return asResult(() => {
      this.parts(ownerKey);
      const channel = this.bindings.get(platform, account);
      return channel ? { lang: channel.lang } : null;
    });
  }

  /** Every channel with its health (GET /owners/:key/channels; the Worker checked the signature). */
  async channels(ownerKey: string): Promise<Result<ChannelsResponse>> {
    return asResult(() => {
      const { outbox } = this.parts(ownerKey);
      const channels = this.bindings.all().map((c) => this.log.health(c, outbox.undelivered(c.platform, c.account)));
      return { owner_key: ownerKey, channels, has_proven_channel: channels.some((c) => c.delivered > 0) };
    });
  }

  /**
   * Whether some bound channel has delivered before: the commit gateway's E_NO_APPROVER check
   * counts this owner as reachable only then (an unproven channel does not count).
   */
  async hasProvenChannel(ownerKey: string): Promise<Result<boolean>> {
    return asResult(() => {
      this.parts(ownerKey);
      return this.bindings.all().some((c) => c.delivered > 0);
    });
  }

  /** Channel counts, the notices not yet delivered and the table list, for chat commands. */
  async summary(ownerKey: string): Promise<Result<OwnerSummary>> {
    return asResult(() => {
      const { inbox, outbox } = this.parts(ownerKey);
      const channels = this.bindings.all();
      return {
        channels: channels.length,
        proven: channels.filter((c) => c.delivered > 0).length,
        pending: outbox.pending(),
        tables: inbox.tables(),
      };
    });
  }

  /** The approval request a button names, if this owner received it, and whether its message to `chat` on `platform` offered Approve. */
  async approval(
    ownerKey: string,
    ref: string,
    platform: ChatPlatform,
    chat: string,
  ): Promise<Result<TappedApproval | null>> {
    return asResult(() => {
      const { inbox, outbox } = this.parts(ownerKey);
      const request = inbox.approval(ref);
      return request ? { request, approve_offered: outbox.approveOffered(request.id, platform, chat) } : null;
    });
  }

  /** The question a chat answer's ref names, if this owner received it (the caller parses it). */
  async question(ownerKey: string, ref: string): Promise<Result<OwnerQuestionNotice | null>> {
    return asResult(() => this.parts(ownerKey).inbox.question(ref) ?? null);
  }

  /**
   * Drains one batch of the outbox. The alarm stays armed while the batch is in flight, so an
   * object killed mid-send is woken again to resend; afterwards it is set for the next due row, or cleared.
   */
  override async alarm(): Promise<void> {
    const ownerKey = this.storedKey();
    if (!ownerKey) return;
    const { outbox } = this.parts(ownerKey);
    await this.ctx.storage.setAlarm(this.now() + BACKOFF_MS);
    await this.drainOnce(outbox);
    const next = this.nextBatch(outbox);
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  /** One drain of the outbox without rescheduling (the alarm's body), for tests and diagnostics. */
  async drain(ownerKey: string): Promise<Result<DrainReport>> {
    return asResult(() => this.drainOnce(this.parts(ownerKey).outbox));
  }

  private async drainOnce(outbox: Outbox): Promise<DrainReport> {
    if (this.draining) return { sent: 0, delivered: 0, failed: 0, next: outbox.nextDue(this.now()) };
    this.draining = true;
    try {
      return await outbox.drain(chatPlatforms(this.env), () => this.now());
    } finally {
      this.draining = false;
    }
  }

  private parts(ownerKey: string) {
    const stored = this.storedKey();
    if (stored === undefined)
      this.ctx.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('owner_key', ?)", ownerKey);
    else if (stored !== ownerKey) throw new TrestleError("E_INTERNAL", "this owner object belongs to another key");
    const inbox = new Inbox(this.ctx.storage.sql, ownerKey);
    return { inbox, outbox: new Outbox(this.ctx.storage.sql, ownerKey, this.bindings, this.log, inbox) };
  }

  private storedKey(): string | undefined {
    const row = this.ctx.storage.sql.exec("SELECT value FROM meta WHERE key = 'owner_key'").toArray()[0];
    return row ? String(row.value) : undefined;
  }

  /** Brings the alarm forward to the next batch, if one is queued. */
  private async schedule(outbox: Outbox): Promise<void> {
    const next = this.nextBatch(outbox);
    if (next === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  /** When the next batch goes: its earliest due row, not before OUTBOX_DELAY_MS from now; null when nothing is queued. */
  private nextBatch(outbox: Outbox): number | null {
    const due = outbox.nextDue(this.now());
    return due === null ? null : Math.max(due, this.now() + outboxDelay(this.env));
  }
}
