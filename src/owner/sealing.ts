/**
 * Sealing and opening text for an end-to-end encrypted room (docs/SPEC.md §5.12, decision 0281),
 * on the owner's machine only: AES-256-GCM under the 32-byte room key, a fresh 96-bit IV from the
 * platform's secure generator for every text (NIST SP 800-38D §8.2.2: a random IV per message,
 * never reused), the table, seat and field as associated data. WebCrypto only, so the same code
 * runs in Node 20, workerd and browsers. What is sealed is the protocol's list (sealedFieldsOf);
 * structure stays in the clear for the relay's policy.
 */
import { randomBytes } from "../client/random.js";
import {
  concatBytes,
  fromBase64url,
  fromUtf8,
  isSealedText,
  parseOrThrow,
  SEALED_IV_BYTES,
  SEALED_PREFIX,
  sealedAad,
  sealedFieldsOf,
  sealedParts,
  SubmissionSchema,
  toBase64url,
  TrestleError,
  utf8,
  type ProjectedEntry,
  type SealedField,
  type SealedPlace,
  type Submission,
} from "../protocol/index.js";

/** Size of a room key in bytes (AES-256). */
export const ROOM_KEY_BYTES = 32;

/** A room key: the AES-GCM key, and its bytes as base64url (how links and key files carry it). */
export interface RoomKey {
  key: CryptoKey;
  text: string;
}

/** A new room key's bytes, from the platform's secure generator. */
export function newRoomKeyText(): string {
  return toBase64url(randomBytes(ROOM_KEY_BYTES));
}

/** The room key whose base64url text is `text`; E_SCHEMA unless it is exactly 32 bytes of canonical base64url. */
export async function roomKeyOf(text: string): Promise<RoomKey> {
  let raw: Uint8Array;
  try {
    raw = fromBase64url(text);
  } catch {
    raw = new Uint8Array(0);
  }
  if (raw.length !== ROOM_KEY_BYTES)
    throw new TrestleError("E_SCHEMA", `a room key is ${ROOM_KEY_BYTES} bytes of base64url (43 characters)`);
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { key, text };
}

/** `text` sealed for `place` under `room`: `e2e1:` + base64url(IV || ciphertext || tag), with a fresh random IV. */
export async function sealText(room: RoomKey, place: SealedPlace, text: string): Promise<string> {
  const iv = randomBytes(SEALED_IV_BYTES);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: sealedAad(place), tagLength: 128 },
    room.key,
    utf8(text),
  );
  return SEALED_PREFIX + toBase64url(concatBytes(iv, new Uint8Array(sealed)));
}

/** The plaintext of `sealed` for `place`, or null when it is not sealed text or does not open under `room` there (another key, table, seat or field, or altered). */
export async function openText(room: RoomKey, place: SealedPlace, sealed: string): Promise<string | null> {
  const parts = sealedParts(sealed);
  if (!parts) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: parts.iv, additionalData: sealedAad(place), tagLength: 128 },
      room.key,
      parts.ciphertext,
    );
    return fromUtf8(new Uint8Array(plain));
  } catch {
    return null;
  }
}

/** A copy of `s` with `field` set to `text`. */
function withField(s: Submission, field: SealedField, text: string): Submission {
  if (field === "terms.text" && "terms" in s && s.terms) return { ...s, terms: { ...s.terms, text } } as Submission;
  return { ...s, body: text };
}

/** `s` with every free-text field sealed (parsed again: a sealed text over a limit is E_TOO_LARGE naming the field). */
export async function sealSubmission(room: RoomKey, s: Submission): Promise<Submission> {
  let out = s;
  for (const [field, text] of sealedFieldsOf(s))
    out = withField(out, field, await sealText(room, { table: s.table, seat: s.seat, field }, text));
  return parseOrThrow(SubmissionSchema, out, "sealed submission");
}

/** `s` with every sealed field opened; E_KEY_FILE when one does not open under `room`. */
export async function openSubmission(room: RoomKey, s: Submission): Promise<Submission> {
  let out = s;
  for (const [field, text] of sealedFieldsOf(s)) {
    const plain = await openText(room, { table: s.table, seat: s.seat, field }, text);
    if (plain === null)
      throw new TrestleError(
        "E_KEY_FILE",
        `the ${field} of this message does not open with the room key on this machine`,
        { field },
      );
    out = withField(out, field, plain);
  }
  return out;
}

/** What a reader sees for a sealed field that does not open: never the ciphertext, never a guess. */
export const UNREADABLE = "[sealed: does not open with this room's key]";

/** A projected entry with its body and terms text opened for the model (a field that does not open reads UNREADABLE). */
export async function openProjected(room: RoomKey, table: string, e: ProjectedEntry): Promise<ProjectedEntry> {
  const seat = e.seat ?? (typeof e.data?.seat === "string" ? e.data.seat : undefined);
  if (seat === undefined) return e;
  const open = async (field: SealedField, text: string) =>
    (await openText(room, { table, seat, field }, text)) ?? UNREADABLE;
  const out: ProjectedEntry = { ...e };
  if (e.body !== undefined && e.body !== "") out.body = await open("body", e.body);
  const terms = e.data?.terms as { text?: unknown } | undefined;
  if (terms && typeof terms.text === "string")
    out.data = { ...e.data, terms: { ...terms, text: await open("terms.text", terms.text) } };
  return out;
}

/**
 * Sealed texts of one room opened ahead of time, for words that are made synchronously
 * (src/text): `add` opens a text with the room key (if this machine holds one), `open` answers with
 * the plaintext of a text added before, and with the text as given otherwise (still sealed, which
 * the words show as sealed, never as terms).
 */
export class OpenedTexts {
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly table: string,
    private readonly room: RoomKey | null,
  ) {}

  /** Opens `seat`'s `field` text; one that is not sealed, or does not open under the key, is left as it is. */
  async add(seat: string, field: SealedField, text: string): Promise<void> {
    const key = textKey(seat, field, text);
    if (!this.room || !isSealedText(text) || this.texts.has(key)) return;
    const plain = await openText(this.room, { table: this.table, seat, field }, text);
    if (plain !== null) this.texts.set(key, plain);
  }

  /** Opens every sealed field of `s` (its body, its terms text). */
  async addSubmission(s: Submission): Promise<void> {
    for (const [field, text] of sealedFieldsOf(s)) await this.add(s.seat, field, text);
  }

  /** `seat`'s `field` text opened if it was added and opened, else `text` as given. */
  readonly open = (seat: string, field: SealedField, text: string): string =>
    this.texts.get(textKey(seat, field, text)) ?? text;
}

function textKey(seat: string, field: SealedField, text: string): string {
  return `${seat}\n${field}\n${text}`;
}
