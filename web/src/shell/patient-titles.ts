/**
 * The patient pages' document titles in their language. The shell reads the words from the
 * patient pages' own i18next instance (i18n/patient-language.ts), loaded here only when a patient
 * page is shown: its chunk came with that page, the staff portals never load i18next, and the
 * patient pages import nothing of the shell for it (an import back into the entry chunk made the
 * bundler split the entry, about 2 KiB more on every page).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Messages } from '@platform/domain';

/** A patient page's name: its key under `titles` in the message catalogue. */
export type PatientTitleKey = keyof Messages['titles'];

/** The words of a title's key in the patient pages' current language. */
export type TitleTranslator = (key: `titles.${PatientTitleKey}`, values?: Record<string, string>) => string;

let translator: TitleTranslator | null = null;
let following: Promise<void> | null = null;
const listeners = new Set<() => void>();

export const currentPatientTitleTranslator = (): TitleTranslator | null => translator;

/** Loads the patient pages' i18n once, takes its translator, and a new one at each language switch. */
export function followPatientLanguage(): Promise<void> {
  following ??= import('../i18n/patient-language').then(({ patientI18n }) => {
    const handOver = () => {
      translator = patientI18n.getFixedT(patientI18n.language) as TitleTranslator;
      for (const listener of listeners) listener();
    };
    handOver();
    patientI18n.on('languageChanged', handOver);
  });
  return following;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current translator (a new render when the patient pages' language changes); `needed` when a patient page is shown. */
export function usePatientTitleTranslator(needed: boolean): TitleTranslator | null {
  useEffect(() => {
    if (needed) void followPatientLanguage();
  }, [needed]);
  return useSyncExternalStore(subscribe, currentPatientTitleTranslator, currentPatientTitleTranslator);
}
