/**
 * Jenny's local taskboard: a JSON file on her machine that only her bot touches. The relay never
 * sees it; the ledger records what her bot says it did (receipt) and what the checker found when it
 * read the file (verify).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { parseOrThrow, sha256, toHex, utf8 } from "../protocol/index.js";

/** The board: cards in the order they will be worked on. */
export const TaskboardSchema = z.strictObject({
  owner: z.string(),
  next: z.array(z.strictObject({ id: z.string(), title: z.string() })),
});
export type Taskboard = z.infer<typeof TaskboardSchema>;

/** The board before the session: #459 ahead of #461. */
export const INITIAL_BOARD: Taskboard = {
  owner: "jenny",
  next: [
    { id: "#459", title: "CSV export for the customer demo" },
    { id: "#461", title: "Fix silent data loss on large imports" },
    { id: "#470", title: "Dark mode" },
  ],
};

/** Writes `board` to `path` (two-space JSON, one trailing newline). */
export function writeBoard(path: string, board: Taskboard): void {
  writeFileSync(path, JSON.stringify(board, null, 2) + "\n");
}

/** The board at `path` and the SHA-256 (hex) of the file's bytes. */
export function readBoard(path: string): { board: Taskboard; sha256: string } {
  const text = readFileSync(path, "utf8");
  return {
    board: parseOrThrow(TaskboardSchema, JSON.parse(text), "taskboard.json"),
    sha256: toHex(sha256(utf8(text))),
  };
}

/** The card ids in order. */
export function order(board: Taskboard): string[] {
  return board.next.map((card) => card.id);
}

/** `board` with the cards `ids` moved to the front, in that order; the others keep theirs. */
export function reorder(board: Taskboard, ids: readonly string[]): Taskboard {
  const front = ids.flatMap((id) => board.next.filter((card) => card.id === id));
  return { ...board, next: [...front, ...board.next.filter((card) => !ids.includes(card.id))] };
}
