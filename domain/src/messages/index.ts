/**
 * The languages of the patient's pages and emails, and their message catalogues (plain data,
 * read by the SPA's react-i18next and by the server's email templates through i18next).
 */
import { en, type Messages } from './en';
import { es } from './es';

export { en, es };
export type { Messages };

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Every language's catalogue, by language. */
export const MESSAGES: Record<Language, Messages> = { en, es };

/** Each language's name in that language (the switch shows them so). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language of a BCP 47 tag (navigator.language, say): es-US, es-419 and es are Spanish; anything else English. */
export function languageOfTag(tag: string | null | undefined): Language {
  const primary = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}

/** A text kept in both languages beside a questionnaire's English (domain data). */
export interface InSpanish<T> { es: T }

/** The text of a questionnaire item in a language: the item itself in English, its `es` words laid over it in Spanish. */
export function inLanguage<T extends object, S extends Partial<T>>(item: T & InSpanish<S>, language: Language): T {
  return language === 'es' ? { ...item, ...item.es } : item;
}

/** A result as its patient reads it: a headline, what it means for them, what to do next. */
export interface ResultInPatientWords {
  headline: string;
  meaning: string | null;
  nextStep: string | null;
}

/**
 * A released value (the spec's words: "High Risk", "Not detected") in the patient's language.
 * The headline is the value itself where the catalogue gives none (a lineage, say, or English
 * risk levels, which are already plain words).
 */
export function resultInPatientWords(language: Language, valueText: string): ResultInPatientWords {
  const messages = MESSAGES[language];
  const entry = <T extends Record<string, string>>(map: T): string | null => (Object.hasOwn(map, valueText) ? map[valueText as keyof T] || null : null);
  return {
    headline: entry(messages.resultHeadlines) ?? valueText,
    meaning: entry(messages.resultValues),
    nextStep: entry(messages.resultNextSteps),
  };
}
