// A bot that joins the conversation at its seat: run `trestle join` first, then this with
// TRESTLE_TABLE and TRESTLE_SEAT set (and TRESTLE_RELAY if the relay is not local).
import { openTable, readKeyFile, runSeat, seatKeyPath, trestleHome } from "../src/client/node.js";

const seat = process.env.TRESTLE_SEAT!;
const client = await openTable({
  relay: process.env.TRESTLE_RELAY ?? "http://127.0.0.1:8787", // its key is pinned on first use
  table: process.env.TRESTLE_TABLE!,
});
const { signer } = await readKeyFile(seatKeyPath(trestleHome(), seat), "seat"); // written by `trestle join`

const run = await runSeat(
  ({ projection }) => {
    // Called when this seat holds the floor; `tail` holds everything new since the last call.
    const heard = projection.tail.filter((e) => e.kind === "say" && e.seat !== seat).at(-1);
    const body = heard ? `${heard.seat} said "${heard.body}". I agree.` : `Hello from ${seat}.`;
    return { kind: "say", body };
  },
  { client, seat, signer, onEvent: (e) => e.type === "wrote" && console.log(`wrote #${e.seq}`) },
);
console.log(`the table closed: ${run.closed}`);
