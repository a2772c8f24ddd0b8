/**
 * Questionnaires as data (domain/src/research/questionnaires.ts): the PROSTOX Research questionnaire
 * keeps the rules a definition must keep; conditions on earlier answers (chained) decide what is
 * shown and so what is required; the one answer check refuses an answer to a hidden question and
 * drops one a change hid.
 */
import { expect } from 'chai';
import {
  applyStudyAnswers, describeDefinitionProblems, isQuestionShown, missingAnswers, PROSTOX_RESEARCH_QUESTIONNAIRE, type QuestionnaireDefinition,
} from '@platform/domain';

const chained: QuestionnaireDefinition = {
  title: 'Chained',
  questions: [
    { key: 'toxicity', label: 'Toxicity', kind: 'yesNoOther', required: true, section: 'S' },
    { key: 'site', label: 'Site', kind: 'choice', options: ['Mouth', 'Skin'], required: true, section: 'S', showWhen: { question: 'toxicity', answers: ['Yes', 'Other'] } },
    { key: 'mouthGrade', label: 'Mouth grade', kind: 'number', min: 1, max: 4, unit: 'grade', integer: true, required: true, section: 'S', showWhen: { question: 'site', answers: ['Mouth'] } },
  ],
};

describe('study questionnaires as data', () => {
  it('the PROSTOX Research questionnaire keeps the rules of a definition', () => {
    expect(describeDefinitionProblems(PROSTOX_RESEARCH_QUESTIONNAIRE)).to.deep.equal([]);
    expect(describeDefinitionProblems(chained)).to.deep.equal([]);
  });

  it('shows a question only while the chain of earlier answers says so; a hidden one is never missing', () => {
    const [, site, grade] = chained.questions;
    expect(isQuestionShown(chained, site, {})).to.equal(false);
    expect(missingAnswers(chained, {}).map((q) => q.key)).to.deep.equal(['toxicity']);
    expect(missingAnswers(chained, { toxicity: 'Other' }).map((q) => q.key)).to.deep.equal(['site']);
    expect(missingAnswers(chained, { toxicity: 'Yes', site: 'Mouth' }).map((q) => q.key)).to.deep.equal(['mouthGrade']);
    // The site stays answered but toxicity went to No: the grade is hidden too.
    expect(isQuestionShown(chained, grade, { toxicity: 'No', site: 'Mouth' })).to.equal(false);
  });

  it('refuses an answer to a hidden question and drops the answers a change hid', () => {
    const refused = applyStudyAnswers(chained, { toxicity: 'No' }, { mouthGrade: 2 });
    expect(refused.problems).to.deep.equal([{ field: 'answers.mouthGrade', message: 'Mouth grade is not asked: asked when site is mouth' }]);
    const hid = applyStudyAnswers(chained, { toxicity: 'Yes', site: 'Mouth', mouthGrade: 3 }, { toxicity: 'No' });
    expect(hid).to.deep.equal({ answers: { toxicity: 'No' }, problems: [] });
    const wrong = applyStudyAnswers(chained, { toxicity: 'Yes', site: 'Mouth' }, { mouthGrade: 2.5 });
    expect(wrong.problems).to.deep.equal([{ field: 'answers.mouthGrade', message: 'Mouth grade must be a whole number' }]);
  });

  it('refuses a condition on a later question, on a question that is not a choice, or on an answer not offered', () => {
    const bad = {
      title: 'Bad',
      questions: [
        { key: 'a', label: 'A', kind: 'text', maxLength: 10, required: false, section: 'S', showWhen: { question: 'b', answers: ['Yes'] } },
        { key: 'b', label: 'B', kind: 'yesNoOther', required: false, section: 'S' },
        { key: 'c', label: 'C', kind: 'date', required: false, section: 'S', showWhen: { question: 'a', answers: ['x'] } },
        { key: 'd', label: 'D', kind: 'date', required: false, section: 'S', showWhen: { question: 'b', answers: ['Maybe'] } },
      ],
    };
    expect(describeDefinitionProblems(bad).map((p) => p.field)).to.deep.equal(['questions.0.showWhen.question', 'questions.2.showWhen.question', 'questions.3.showWhen.answers']);
  });
});
