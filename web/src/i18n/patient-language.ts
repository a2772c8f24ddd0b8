/**
 * The patient's pages in English or Spanish: one i18next instance over the domain's message
 * catalogues (the ones the server's emails are written from), bound to react-i18next. Only the
 * patient's pages import it, so the staff portals never load it. The language is the one an
 * emailed link names, else the one the patient chose on a patient page (kept in this browser),
 * else the browser's (navigator.language).
 */
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, languageOfTag, MESSAGES, type Language } from '@platform/domain';

const STORAGE_KEY = 'platform.patient-language';

/**
 * The language an emailed link names (`?lang=es`: the patient's language on file, the one their
 * emails are written in), else the patient's own choice in this browser, else the browser's.
 */
export function initialLanguage(): Language {
  const linked = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('lang');
  if (isLanguage(linked)) return linked;
  try {
    const kept = window.localStorage.getItem(STORAGE_KEY);
    if (isLanguage(kept)) return kept;
  } catch {
    // Storage refused (private mode): the browser's language then.
  }
  return languageOfTag(typeof navigator === 'undefined' ? null : navigator.language);
}

export const patientI18n = i18next.createInstance();
void patientI18n.use(initReactI18next).init({
  resources: Object.fromEntries(Object.entries(MESSAGES).map(([language, messages]) => [language, { translation: messages }])),
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  react: { useSuspense: false },
  showSupportNotice: false, // no advertisement in the console
});

/** Switches the patient's pages to a language and remembers it in this browser. */
export function choosePatientLanguage(language: Language): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not kept: this page still switches.
  }
  void patientI18n.changeLanguage(language);
}

/** t() and the current language of the patient's pages. */
export function usePatientText() {
  const { t, i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return { t, language };
}
