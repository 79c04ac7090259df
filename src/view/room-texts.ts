/**
 * The sealed texts of one end-to-end encrypted room as the principal window shows them (docs/SPEC.md
 * §5.12): opened with the room key this home holds (owner/sealing.ts OpenedTexts), read from the
 * home when the first sealed text arrives and again while it has none. A text that does not open
 * stays sealed, and the words (src/text) show it as sealed, never as a body or as terms.
 */
import { isSealedText, sealedFieldsOf, type Entry, type SealedField, type Submission } from "../protocol/index.js";
import { loadRoomKey, OpenedTexts } from "../owner/index.js";

/** One table's opened texts. */
export class RoomTexts {
  private texts: OpenedTexts;
  private keyed = false;

  constructor(
    private readonly home: string,
    private readonly table: string,
  ) {
    this.texts = new OpenedTexts(table, null);
  }

  /** Opens the sealed bodies and terms texts of `entries` (authored ones). */
  async addEntries(entries: readonly Entry[]): Promise<void> {
    for (const entry of entries)
      if (entry.kind !== "system" && entry.kind !== "approval") await this.addSubmission(entry);
  }

  /** Opens the sealed fields of `s` (a held message, or an entry). */
  async addSubmission(s: Submission): Promise<void> {
    const fields = sealedFieldsOf(s).filter(([, text]) => isSealedText(text));
    if (fields.length === 0 || !(await this.ready())) return;
    for (const [field, text] of fields) await this.texts.add(s.seat, field, text);
  }

  /** `seat`'s `field` text opened if it was added and opened, else as given. */
  readonly open = (seat: string, field: SealedField, text: string): string => this.texts.open(seat, field, text);

  /** Whether this home holds the room key (read again while it did not). */
  private async ready(): Promise<boolean> {
    if (this.keyed) return true;
    const room = await loadRoomKey(this.home, this.table).catch(() => null);
    if (room) [this.texts, this.keyed] = [new OpenedTexts(this.table, room), true];
    return this.keyed;
  }
}
