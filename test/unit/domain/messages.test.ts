/**
 * The message catalogues of the patient's pages and emails: every key in one language is in the
 * other, no Spanish text is left empty where the English says something, every placeholder is
 * kept, and every questionnaire kept as data (eligibility questions, the registry survey, the
 * referral sources) has its Spanish words beside the English.
 */
import { expect } from 'chai';
import {
  COVID_PCR_RESULT_TEXT, ELIGIBILITY_QUESTIONS, en, es, FREQUENCY_SCALE, KRAS_GENOTYPES, languageOfTag, LANGUAGES, MESSAGES, PATIENT_PRODUCTS,
  PROBLEM_SCALE, PROSTOX_REGISTRY_SURVEY, REFERRAL_SOURCES, REFERRAL_SOURCES_ES, resultInPatientWords, RISK_LEVELS, SURVEY_SECTIONS, SURVEY_SECTIONS_ES, TWO_LEVEL_RISKS,
} from '@platform/domain';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a catalogue as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('message catalogues (en, es)', () => {
  const english = new Map(leaves(en as unknown as Tree));
  const spanish = new Map(leaves(es as unknown as Tree));

  it('has a catalogue for every language', () => {
    expect(Object.keys(MESSAGES).sort()).to.deep.equal([...LANGUAGES].sort());
  });

  it('has the same keys in English and Spanish (a key missing in one language fails here)', () => {
    const onlyEnglish = [...english.keys()].filter((k) => !spanish.has(k));
    const onlySpanish = [...spanish.keys()].filter((k) => !english.has(k));
    expect(onlyEnglish, 'keys missing in Spanish').to.deep.equal([]);
    expect(onlySpanish, 'keys missing in English').to.deep.equal([]);
  });

  it('leaves no Spanish text empty where the English has words, and keeps every placeholder', () => {
    for (const [key, text] of english) {
      const translated = spanish.get(key)!;
      if (text) expect(translated, key).to.not.equal('');
      expect(placeholders(translated), key).to.deep.equal(placeholders(text));
    }
  });

  it('says to the patient, in each language, what each result value means and what to do next; in Spanish under a Spanish headline', () => {
    const values = new Set([...RISK_LEVELS, ...TWO_LEVEL_RISKS, ...KRAS_GENOTYPES, ...Object.values(COVID_PCR_RESULT_TEXT)]);
    for (const language of LANGUAGES) {
      for (const value of values) {
        const words = resultInPatientWords(language, value);
        expect(words.meaning, `${language} ${value}`).to.be.a('string').and.not.equal('');
        expect(words.nextStep, `${language} ${value}`).to.be.a('string').and.not.equal('');
        // Written to the patient, not about them.
        expect(`${words.meaning} ${words.nextStep}`, `${language} ${value}`).to.not.match(/\b(the patient|el paciente|la paciente|treating physician)\b/i);
        if (language === 'es') expect(words.headline, value).to.not.equal(value);
      }
    }
    expect(resultInPatientWords('en', 'High Risk').headline).to.equal('High Risk');
    expect(resultInPatientWords('es', 'High Risk').headline).to.equal('Riesgo alto');
    expect(resultInPatientWords('en', 'BA.2.86')).to.deep.equal({ headline: 'BA.2.86', meaning: null, nextStep: null });
    // Not a key of the catalogue: an inherited name is no value.
    expect(resultInPatientWords('en', 'constructor').meaning).to.equal(null);
  });

  it('reads the language from a browser tag: Spanish of any region is Spanish, anything else English', () => {
    expect(languageOfTag('es-US')).to.equal('es');
    expect(languageOfTag('es-419')).to.equal('es');
    expect(languageOfTag('ES')).to.equal('es');
    expect(languageOfTag('en-GB')).to.equal('en');
    expect(languageOfTag('fr-FR')).to.equal('en');
    expect(languageOfTag(undefined)).to.equal('en');
  });
});

describe('questionnaires in both languages', () => {
  it('every eligibility question, hint, reason, guidance and option has its Spanish text', () => {
    for (const product of PATIENT_PRODUCTS) {
      for (const q of ELIGIBILITY_QUESTIONS[product]) {
        const where = `${product}.${q.id}`;
        expect(q.es.text, where).to.be.a('string').and.not.equal('');
        expect(q.es.text, where).to.not.equal(q.text);
        expect(Boolean(q.es.hint), `${where} hint`).to.equal(Boolean(q.hint));
        if (q.kind === 'yes-no-other') {
          expect(Boolean(q.es.ineligibleReason), `${where} reason`).to.equal(Boolean(q.ineligibleReason));
          expect(Boolean(q.es.guidance), `${where} guidance`).to.equal(Boolean(q.guidance));
        } else {
          for (const o of q.options) {
            expect(o.es.label, `${where}.${o.value}`).to.be.a('string').and.not.equal('');
            expect(Boolean(o.es.hint), `${where}.${o.value} hint`).to.equal(Boolean(o.hint));
          }
        }
      }
    }
  });

  it('every registry survey question, its options and its section have their Spanish text', () => {
    for (const q of PROSTOX_REGISTRY_SURVEY) {
      expect(q.es.text, q.id).to.be.a('string').and.not.equal('');
      expect(q.es.text, q.id).to.not.equal(q.text);
      if (q.kind === 'scale') {
        expect(q.es.options, q.id).to.have.length(q.options.length);
        expect([PROBLEM_SCALE, FREQUENCY_SCALE]).to.deep.include(q.options);
      }
    }
    for (const section of SURVEY_SECTIONS) expect(SURVEY_SECTIONS_ES[section], section).to.be.a('string').and.not.equal('');
  });

  it('every referral source has its Spanish words', () => {
    for (const source of REFERRAL_SOURCES) expect(REFERRAL_SOURCES_ES[source], source).to.be.a('string').and.not.equal('');
  });
});
