/** What the demo's owners keep on their own machines: a seat's mandate, signed with the owner key into that owner's trestle home. */
import type { LoadedKey } from "../client/node.js";
import { seatFiles, setMandate, type MandateFields } from "../owner/index.js";

/** Signs `seat`'s mandate at `table` with `owner`'s key into `home`: nothing disclosed, confirmed or paused unless `fields` says so. */
export async function signSeatMandate(
  home: string,
  owner: LoadedKey,
  table: string,
  seat: string,
  fields: Partial<MandateFields>,
): Promise<void> {
  const all: MandateFields = {
    table,
    seat,
    owner: owner.name,
    never_disclose: [],
    require_confirm: [],
    paused: false,
    ...fields,
  };
  await setMandate(seatFiles(home, table, seat).mandate, owner.signer, all, { now: Date.now() });
}
