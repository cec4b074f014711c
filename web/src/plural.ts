// Counted nouns, in English and Arabic (issue 28, defect 7): "1 trick" / "2 tricks", and in
// Arabic the forms a number asks for: لفة واحدة، لفتان، ٣ لفات (3 to 10: plural), ١١ لفة (11 and
// more: singular), written with the Eastern digits of num(). The form comes from the language's
// plural rules (Intl.PluralRules: en one/other; ar zero/one/two/few/many/other).
import { lang, num, type Lang } from './i18n';

/** A noun's forms. `one` and `two` are whole phrases (Arabic says "لفة واحدة", "لفتان" without a digit). */
export interface Forms {
  one: string;
  other: string;
  /** Arabic only: the dual (a whole phrase), 3–10 (plural, after the number), 11–99 (singular, after the number). */
  two?: string;
  /** Arabic: the dual after a verb or preposition (لفتين, where the subject's form is لفتان). */
  twoAcc?: string;
  few?: string;
  many?: string;
}

const rules = new Map<Lang, Intl.PluralRules>();
const ruleOf = (l: Lang): Intl.PluralRules => {
  let r = rules.get(l);
  if (!r) rules.set(l, (r = new Intl.PluralRules(l)));
  return r;
};

/** The count and its noun, as the language says it: "1 trick", "7 tricks", «لفتان», «٩ لفات», «١١ لفة». */
export function counted(n: number, forms: Forms, l: Lang = lang(), objectCase = false): string {
  const cat = ruleOf(l).select(n);
  if (l === 'ar') {
    if (cat === 'one') return forms.one;
    if (cat === 'two' && objectCase && forms.twoAcc) return forms.twoAcc;
    if (cat === 'two' && forms.two) return forms.two;
    if (cat === 'few' && forms.few) return `${num(n, l)} ${forms.few}`;
    if (cat === 'many' && forms.many) return `${num(n, l)} ${forms.many}`;
    return `${num(n, l)} ${forms.other}`;
  }
  return cat === 'one' ? `${num(n, l)} ${forms.one}` : `${num(n, l)} ${forms.other}`;
}

/** Nouns the screens count, in each language. */
export const NOUNS = {
  trick: {
    en: { one: 'trick', other: 'tricks' },
    ar: { one: 'لفة واحدة', two: 'لفتان', twoAcc: 'لفتين', few: 'لفات', many: 'لفة', other: 'لفة' },
  },
  point: {
    en: { one: 'point', other: 'points' },
    ar: { one: 'نقطة واحدة', two: 'نقطتان', twoAcc: 'نقطتين', few: 'نقاط', many: 'نقطة', other: 'نقطة' },
  },
  round: {
    en: { one: 'round', other: 'rounds' },
    ar: { one: 'جولة واحدة', two: 'جولتان', twoAcc: 'جولتين', few: 'جولات', many: 'جولة', other: 'جولة' },
  },
  card: {
    en: { one: 'card', other: 'cards' },
    ar: { one: 'ورقة واحدة', two: 'ورقتان', twoAcc: 'ورقتين', few: 'أوراق', many: 'ورقة', other: 'ورقة' },
  },
  spectator: {
    en: { one: 'watching', other: 'watching' },
    ar: { one: 'متفرّج واحد', two: 'متفرّجان', twoAcc: 'متفرّجَين', few: 'متفرّجين', many: 'متفرّجًا', other: 'متفرّج' },
  },
  deal: {
    en: { one: 'deal', other: 'deals' },
    ar: { one: 'توزيعة واحدة', two: 'توزيعتان', twoAcc: 'توزيعتين', few: 'توزيعات', many: 'توزيعة', other: 'توزيعة' },
  },
} satisfies Record<string, Record<Lang, Forms>>;

export type Noun = keyof typeof NOUNS;

/**
 * `n` of a noun the screens count: count(9, 'trick') is "9 tricks" / «٩ لفات». `objectCase`: the
 * count is the object of a verb or follows a preposition (Arabic's dual changes: «أكل لفتين»).
 */
export const count = (n: number, noun: Noun, l: Lang = lang(), objectCase = false): string => counted(n, NOUNS[noun][l], l, objectCase);
