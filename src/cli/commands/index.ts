/**
 * The registry of CLI verbs, in the order `trestle help` lists them. A new verb is one file in
 * this folder plus one line here (approve, reject and tasks arrive with the commit gateway, #3).
 */
import type { Command } from "./command.js";
import { create } from "./create.js";
import { decide } from "./decide.js";
import { exportCommand } from "./export.js";
import { history } from "./history.js";
import { join } from "./join.js";
import { keygen } from "./keygen.js";
import { mcp } from "./mcp.js";
import { pass } from "./pass.js";
import { pin } from "./pin.js";
import { propose } from "./propose.js";
import { raiseHand } from "./raise-hand.js";
import { read } from "./read.js";
import { say } from "./say.js";
import { verify } from "./verify.js";
import { watch } from "./watch.js";

/** Every command, by its place in the help list. */
export const COMMANDS: readonly Command[] = [
  keygen,
  create,
  join,
  say,
  pass,
  raiseHand,
  propose,
  decide,
  read,
  watch,
  history,
  verify,
  exportCommand,
  pin,
  mcp,
];

/** The command named `name`, if any. */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
