import { useEffect } from 'react';
import { Button, Group } from '@mantine/core';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@platform/domain';
import { choosePatientLanguage, usePatientText } from '../i18n/patient-language';

/** The switch's name in both languages, so it can be found whichever one the page is in. */
export const LANGUAGE_SWITCH_LABEL = 'Language / Idioma';

/**
 * English / Español on every patient page: two toggle buttons (aria-pressed), each named in its
 * own language (lang attribute). The document's language follows, for screen readers.
 * `onChange` lets a page store the choice with the patient.
 */
export function LanguageSwitch({ onChange }: { onChange?: (language: Language) => void }) {
  const { language } = usePatientText();
  useEffect(() => {
    document.documentElement.lang = language;
    return () => {
      document.documentElement.lang = 'en';
    };
  }, [language]);
  return (
    <Group gap={4} justify="flex-end" role="group" aria-label={LANGUAGE_SWITCH_LABEL}>
      {LANGUAGES.map((l) => (
        <Button
          key={l}
          lang={l}
          size="compact-sm"
          variant={l === language ? 'light' : 'subtle'}
          aria-pressed={l === language}
          onClick={() => {
            if (l === language) return;
            choosePatientLanguage(l);
            onChange?.(l);
          }}
        >
          {LANGUAGE_NAMES[l]}
        </Button>
      ))}
    </Group>
  );
}
