/** `trestle pin`: show, make or forget the pin of a relay's key (trust on first use). */
import { PinStore, pinRelay } from "../../client/node.js";
import type { Command } from "./command.js";

/** `pin`: trust on first use made explicit; --forget is the only way to accept a changed key. */
export const pin: Command = {
  name: "pin",
  summary: "pin the relay's key (trust on first use), list pins, or forget one",
  flags: {
    list: { type: "boolean", help: "list every pinned relay" },
    forget: { type: "boolean", help: "forget the pin of --relay (after a deliberate key change)" },
  },
  async run(ctx) {
    const store = new PinStore(ctx.home);
    if (ctx.args.values.list === true) {
      const pins = store.all();
      ctx.out.result(
        Object.entries(pins).map(([url, p]) => `${url}  ${p.relay_key}`),
        pins,
      );
      return;
    }
    const url = ctx.http().url;
    if (ctx.args.values.forget === true) {
      const forgot = store.forget(url);
      ctx.out.result(forgot ? `forgot the pin of ${url}` : `${url} was not pinned`, { url, forgot });
      return;
    }
    const { relayKey, firstUse } = await pinRelay(ctx.http(), store, ctx.io.clock);
    ctx.out.result(`${url} is pinned to ${relayKey}${firstUse ? " (pinned just now: first use)" : ""}`, {
      url,
      relay_key: relayKey,
      first_use: firstUse,
    });
  },
};
