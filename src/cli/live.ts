/**
 * A verified live tail over a table's WebSocket, as a seat or as an owner session, for the verbs
 * that follow a table (`watch`, `market watch`): a table that moved here is followed first, a
 * missing or rolled-back one shows with the relay's own code before the socket opens, reconnects
 * are noted, evidence is warned about, and Ctrl-C ends it cleanly.
 */
import type { Entry, HiddenEntry } from "../protocol/index.js";
import type { Reader, TableClient, TableSocket } from "../client/index.js";
import type { Context } from "./context.js";
import { EXIT, type ExitCode } from "./exit.js";

/** Follows `client` live as `reader`, handing each verified batch to `onItems` (which may close the socket), until it ends: exit 0, or the error that ended it is thrown. */
export async function followLive(
  ctx: Context,
  client: TableClient,
  reader: Reader,
  onItems: (items: (Entry | HiddenEntry)[], socket: TableSocket) => void,
): Promise<ExitCode> {
  if (client.tracker.awaitingCustody) await client.follow(reader); // a table that moved here (docs/SPEC.md §8.4)
  await client.head(); // a missing table or a rolled-back one shows here, with the relay's own code
  const socket: TableSocket = client.socket({
    ...reader.as,
    signer: reader.signer,
    handlers: {
      onEntries: (items) => onItems(items, socket),
      onStatus: (status, detail) => {
        if (status === "reconnecting" && detail)
          ctx.out.notice(
            `connection lost; reconnecting in ${Math.round(detail.delayMs)} ms (attempt ${detail.attempt})`,
          );
      },
      onEvidence: (evidence) => ctx.out.warn(`RELAY CAUGHT: ${evidence.message}`),
    },
  });
  const interrupt = () => socket.close();
  process.once("SIGINT", interrupt);
  try {
    await socket.start();
    const who = "seat" in reader.as ? reader.as.seat : `owner ${reader.as.owner} (a live owner session)`;
    ctx.out.notice(`watching ${client.table} as ${who}; Ctrl-C to stop`);
    const end = await socket.ended;
    if (end.reason === "error") throw end.error;
    return EXIT.OK;
  } finally {
    process.off("SIGINT", interrupt);
  }
}
