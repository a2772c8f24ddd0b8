/** Request schemas of the follow-ups (rules and values: follow-ups.ts). Unknown keys refused, every field labelled. */
import Joi from 'joi';
import { RESULT_LINK_TOKEN_HEX_LENGTH } from '../results/result-links';
import { YES_NO_OTHER, YesNoOther } from '../shared/values';
import {
  FOLLOW_UP_COMMENT_MAX_LENGTH, FOLLOW_UP_QUESTION_MAX_LENGTH, PROSTOX_REGISTRY_SURVEY, type SurveyAnswers,
  type SurveyQuestion,
} from './follow-ups';

const STRICT_KEYS = { allowUnknown: false } as const;

/** A follow-up link token: 32 random bytes, hex (as every emailed link of the platform). */
export const followUpTokenSchema = Joi.string()
  .hex()
  .length(RESULT_LINK_TOKEN_HEX_LENGTH)
  .label('Token')
  .messages({ 'string.hex': 'This link is not valid', 'string.length': 'This link is not valid', 'string.base': 'This link is not valid' });

const commentSchema = (label: string) => Joi.string().trim().max(FOLLOW_UP_COMMENT_MAX_LENGTH).allow('').label(label);

export interface RegistrySurveyBody {
  token: string;
  /** Question id → a scale position (0 …) or Yes / No / Other. */
  answers: SurveyAnswers;
  /** Question id → what "Other" means, for the yes/no/other questions answered Other. */
  details?: Record<string, string>;
}

function answerSchema(q: SurveyQuestion): Joi.Schema {
  if (q.kind === 'scale') {
    return Joi.number().integer().min(0).max(q.options.length - 1).label(q.text)
      .messages({ 'number.base': 'Choose one answer', 'number.min': 'Choose one answer', 'number.max': 'Choose one answer', 'number.integer': 'Choose one answer', 'any.required': 'Choose one answer' });
  }
  return Joi.string().valid(...YES_NO_OTHER).label(q.text).messages({ 'any.only': 'Choose Yes, No or Other', 'any.required': 'Choose Yes, No or Other', 'string.base': 'Choose Yes, No or Other' });
}

/** POST registry/study/prostox/{sampleId}/follow-up-survey: every question answered; "Other" says what. */
export const registrySurveyBody = Joi.object<RegistrySurveyBody>({
  token: followUpTokenSchema.required(),
  answers: Joi.object(Object.fromEntries(PROSTOX_REGISTRY_SURVEY.map((q) => [q.id, answerSchema(q).required()])))
    .options(STRICT_KEYS).label('Answers').required(),
  details: Joi.object(Object.fromEntries(PROSTOX_REGISTRY_SURVEY.filter((q) => q.kind === 'yes-no-other').map((q) => [q.id, commentSchema('Details')])))
    .options(STRICT_KEYS).label('Details').default({}),
}).custom((body: RegistrySurveyBody, helpers) => {
  for (const q of PROSTOX_REGISTRY_SURVEY) {
    if (q.kind === 'yes-no-other' && body.answers[q.id] === YesNoOther.Other && !body.details?.[q.id]?.trim()) {
      return helpers.error('any.custom', { path: ['details', q.id] } as never, { path: ['details', q.id] } as never);
    }
  }
  return body;
}).messages({ 'any.custom': 'Please say what "Other" means' }).options(STRICT_KEYS).label('Request body');

export interface NewSampleFollowUpBody { sampleId: number; question: string }
/** POST …/sample-follow-up: the question the patient gets by email with a single-use link. */
export const newSampleFollowUpBody = Joi.object<NewSampleFollowUpBody>({
  sampleId: Joi.number().integer().positive().label('Sample').required(),
  question: Joi.string().trim().min(1).max(FOLLOW_UP_QUESTION_MAX_LENGTH).label('Question').required(),
}).options(STRICT_KEYS).label('Request body');

export interface SampleFollowUpResponseBody { token: string; answer: YesNoOther; comment?: string }
/** POST sample-follow-up/{id}/response: Yes / No / Other, and a comment (needed with Other). */
export const sampleFollowUpResponseBody = Joi.object<SampleFollowUpResponseBody>({
  token: followUpTokenSchema.required(),
  answer: Joi.string().valid(...YES_NO_OTHER).label('Answer').messages({ 'any.only': 'Choose Yes, No or Other' }).required(),
  comment: commentSchema('Comment').when('answer', {
    is: YesNoOther.Other,
    then: Joi.string().trim().min(1).required().messages({ 'any.required': 'Please say what "Other" means', 'string.empty': 'Please say what "Other" means' }),
  }),
}).options(STRICT_KEYS).label('Request body');
