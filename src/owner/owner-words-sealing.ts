/**
 * A seat's questions to its owner, the answers and the owner's instructions in an end-to-end
 * encrypted room (docs/SPEC.md §5.12, §5.14, decision 0403): sealed on the machine that writes them
 * under the room key this home holds (field `question` for a question's text and choices,
 * `answer`, `instruction`, each bound to the seat asked or told), and opened on the machine that
 * reads them. A home without the room's key writes and reads them as they are (a plaintext room).
 */
import {
  LIMITS,
  TrestleError,
  type OwnerAnswer,
  type OwnerInstruction,
  type QuestionRecord,
  type SealedField,
} from "../protocol/index.js";
import { loadRoomKey } from "./room-key.js";
import { openText, sealText, UNREADABLE, type RoomKey } from "./sealing.js";

/** The owner's words at one table, sealed or opened with the room key this home holds (none: as they are). */
export class OwnerWords {
  private constructor(
    private readonly table: string,
    private readonly room: RoomKey | null,
  ) {}

  /** The words at `table` for home `home`: sealed when the home holds the room's key. */
  static async at(home: string, table: string): Promise<OwnerWords> {
    return new OwnerWords(table, await loadRoomKey(home, table));
  }

  /** Whether this home seals them (it holds the room key). */
  get sealed(): boolean {
    return this.room !== null;
  }

  /** A sealer of `seat`'s `field` texts, or undefined in a plaintext room. */
  sealer(seat: string, field: SealedField): ((plain: string) => Promise<string>) | undefined {
    const room = this.room;
    return room ? (plain) => sealText(room, { table: this.table, seat, field }, plain) : undefined;
  }

  /** `plain` (at most LIMITS.note_chars, else E_TOO_LARGE) sealed as `seat`'s `field` text, or as it is in a plaintext room. */
  async seal(seat: string, field: SealedField, plain: string): Promise<string> {
    if (plain.length > LIMITS.note_chars)
      throw new TrestleError("E_TOO_LARGE", `the ${field} is at most ${LIMITS.note_chars} chars, not ${plain.length}`, {
        path: field,
      });
    return (await this.sealer(seat, field)?.(plain)) ?? plain;
  }

  /** `text` opened as `seat`'s `field` (UNREADABLE when it does not open), or as it is in a plaintext room. */
  async open(seat: string, field: SealedField, text: string): Promise<string> {
    if (!this.room) return text;
    return (await openText(this.room, { table: this.table, seat, field }, text)) ?? UNREADABLE;
  }

  /** `record` with its question's text and choices and its answer's value opened (the signed statements stay as signed). */
  async openQuestion(record: QuestionRecord): Promise<QuestionRecord> {
    if (!this.room) return record;
    const { seat, text, choices } = record.question;
    const question = { ...record.question, text: await this.open(seat, "question", text) };
    if (choices) question.choices = await Promise.all(choices.map((c) => this.open(seat, "question", c)));
    const answer = record.answer && (await this.openAnswer(seat, record.answer));
    return { ...record, question, ...(answer ? { answer } : {}) };
  }

  /** `answer` to `seat` with its value opened. */
  async openAnswer(seat: string, answer: OwnerAnswer): Promise<OwnerAnswer> {
    return { ...answer, value: await this.open(seat, "answer", answer.value) };
  }

  /** `seat`'s instructions with their texts opened. */
  async openInstructions(seat: string, items: readonly OwnerInstruction[]): Promise<OwnerInstruction[]> {
    return Promise.all(items.map(async (item) => ({ ...item, text: await this.open(seat, "instruction", item.text) })));
  }
}

/** E_SCHEMA unless `value` is one of the (opened) question's choices; any value answers a free-text question. */
export function requireChoice(record: QuestionRecord, value: string): void {
  const choices = record.question.choices;
  if (choices && !choices.includes(value))
    throw new TrestleError("E_SCHEMA", `the answer is one of the question's choices: ${choices.join(" | ")}`, {
      path: "value",
    });
}
