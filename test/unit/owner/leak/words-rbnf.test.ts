/**
 * Number words of the languages of the CLDR spellout rules (src/owner/leak/words-rbnf.ts): one
 * grammar over the generated lexicon, read by value in sentences as people write them (glued,
 * spaced, with or without diacritics, with each language's decimal word), in the languages
 * to-words adds, and never a longer number's first part or an English word that happens to be a
 * number word elsewhere.
 */
import { describe, expect, it } from "vitest";
import { decKey } from "../../../../src/owner/leak/decimal.js";
import { numberForms } from "../../../../src/owner/leak/normal-forms.js";
import { readRbnf } from "../../../../src/owner/leak/words-rbnf.js";

const values = (text: string) =>
  new Set(numberForms(text).flatMap((view) => readRbnf(view).map((r) => decKey(r.value))));

describe("readRbnf", () => {
  it.each([
    ["German", "Unter zweitausendvierhundert Euro gehe ich nicht."],
    ["German, spaced", "zwei tausend vier hundert"],
    ["German, as years are said", "vierundzwanzighundert"],
    ["German, with a numeral", "2,4 Tausend Euro"],
    ["French", "Je ne descends pas sous deux mille quatre cents euros."],
    ["French, hyphenated", "deux-mille-quatre-cents"],
    ["Spanish", "No bajo de dos mil cuatrocientos."],
    ["Spanish, with a numeral", "2 mil 400 pesos"],
    ["Italian", "Il mio minimo è duemilaquattrocento euro."],
    ["Portuguese", "Não aceito menos de dois mil e quatrocentos."],
    ["Dutch", "Mijn bodemprijs is tweeduizend vierhonderd euro."],
    ["Dutch, as years are said", "vierentwintighonderd"],
    ["Swedish", "tvåtusen fyrahundra kronor"],
    ["Danish", "to tusind fire hundrede kroner"],
    ["Norwegian", "to tusen fire hundre kroner"],
    ["Norwegian, a comma after the thousand", "to tusen, fire hundre"],
    ["Spanish after a word that is a number in Esperanto", "ok, dos mil cuatrocientos"],
    ["Finnish", "kaksituhatta neljäsataa euroa"],
    ["Polish", "dwa tysiące czterysta złotych"],
    ["Czech", "dva tisíce čtyři sta korun"],
    ["Russian, genitive with ё", "не меньше двух тысяч четырёхсот рублей"],
    ["Ukrainian", "дві тисячі чотириста гривень"],
    ["Hungarian", "kétezer-négyszáz forint"],
    ["Turkish", "iki bin dört yüz lira"],
    ["Indonesian", "dua ribu empat ratus rupiah"],
    ["Vietnamese", "hai nghìn bốn trăm đồng"],
    ["Korean", "이천사백 원"],
    ["Thai, glued to its currency", "สองพันสี่ร้อยบาท"],
    ["Hindi", "दो हज़ार चार सौ रुपये"],
    ["Greek", "δύο χιλιάδες τετρακόσια ευρώ"],
    ["Swahili", "elfu mbili mia nne"],
    ["German digit words", "zwei vier null null"],
    ["Bengali (to-words)", "দুই হাজার চার শত টাকা"],
    ["Marathi (to-words)", "दोन हजार चारशे रुपये"],
    ["Punjabi (to-words)", "ਦੋ ਹਜ਼ਾਰ ਚਾਰ ਸੌ ਰੁਪਏ"],
    ["Urdu (to-words)", "دو ہزار چار سو روپے"],
    ["Telugu (to-words)", "రెండు వెయ్యి నాలుగు వంద"],
    ["Kannada (to-words)", "ಎರಡು ಸಾವಿರ ನಾಲ್ಕು ನೂರು"],
    ["Hausa (to-words)", "biyu dubu da huɗu ɗari naira"],
    ["Yoruba (to-words)", "méjì ẹgbẹ̀rún mẹ́rin ọgọ́rùn"],
    ["German, a decimal before a power", "zwei Komma vier Tausend"],
    ["Spanish, a decimal before a power", "dos coma cuatro mil"],
    ["French, a decimal before a power", "deux virgule quatre mille"],
    ["Bengali, a decimal before a power", "দুই দশমিক চার হাজার"],
  ])("reads 2400 in %s", (_, text) => {
    expect(values(text)).toContain("2400");
  });

  it.each(["дві тисячі п'ятсот", "дві тисячі пʼятсот", "дві тисячі п’ятсот"])(
    "reads a word with an apostrophe in it, any apostrophe: %j is 2500",
    (text) => {
      expect(values(text)).toContain("2500");
    },
  );

  describe("when the words say another number", () => {
    it.each([
      ["deux mille quatre cent cinquante", "2450"],
      ["dos mil cuatrocientos cincuenta", "2450"],
      ["zweiundzwanzigtausendvierhundert", "22400"],
      ["двадцать две тысячи четыреста", "22400"],
      ["deux mille quatre cent huitante", "2480"],
      ["zwei Komma fünf Tausend", "2500"],
      ["dos coma cuatro cinco", "2.45"],
      ["দুই হাজার পাঁচ শত", "2500"],
      ["biyu dubu da biyar ɗari", "2500"],
    ])("reads %j as %s, not 2400", (text, value) => {
      const read = values(text);
      expect(read).toContain(value);
      expect(read).not.toContain("2400");
    });
  });

  describe("when English words are number words in another language", () => {
    it.each([
      ["I want to fire him", ["24", "2400"]],
      ["the elf found a null pointer", ["11"]],
      ["I am one of six", ["16", "6"]],
      ["Sept 24 meeting, mille grazie", ["2400", "724"]],
      ["do re mi fa sol", ["2400"]],
      ["an elf, an ent and a troll", ["11", "2400"]],
      ["a comma, four of them", ["0.4", "2.4"]],
      ["the point is two thousand", ["2000.4", "2400"]],
    ])("reads none of the values a short word alone would give in %j", (text, absent) => {
      const read = values(text);
      for (const value of absent) expect(read).not.toContain(value);
    });
  });
});
