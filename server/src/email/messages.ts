/**
 * The patient emails' words: one i18next instance over the domain's message catalogues (the same
 * data the SPA's react-i18next reads), built once, synchronously. Emails are plain text: nothing
 * is HTML-escaped.
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, MESSAGES, type Language } from '@platform/domain';

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(Object.entries(MESSAGES).map(([language, messages]) => [language, { translation: messages }])),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false, // no advertisement in the logs
});

/** One email's words in a language. */
export type EmailText = (key: string, values?: Record<string, string | number>) => string;

/** Words the patient's pages and emails share (outside `email.`), in a language. */
export function sharedText(language: Language): EmailText {
  const t = i18n.getFixedT(language);
  return (key, values) => t(key, values) as string;
}

/** The words of the patient's emails in their language (a missing key shows the key: the catalogue test prevents that). */
export function emailText(language: Language): EmailText {
  const t = i18n.getFixedT(language);
  return (key, values) => t(`email.${key}`, values) as string;
}
