import { afterEach, describe, expect, it } from 'vitest';
import { initialLanguage } from './patient-language';

describe('the patient pages\' language', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    window.localStorage.clear();
  });

  it('follows the language an emailed link names, before the browser\'s own choice', () => {
    window.localStorage.setItem('platform.patient-language', 'en');
    window.history.replaceState(null, '', '/registry/survey?token=abc&lang=es');
    expect(initialLanguage()).toBe('es');
  });

  it('without one, the choice kept in this browser; a language it does not know is ignored', () => {
    window.localStorage.setItem('platform.patient-language', 'es');
    window.history.replaceState(null, '', '/reports/patient_result/41?lang=fr');
    expect(initialLanguage()).toBe('es');
  });
});
