/**
 * What of an account the systems outside the product may be told of (the FHIR API, result
 * webhooks, HL7 messages): samples of named patients outside research (a research participant,
 * a patient with a study id, and a research project's or Research Portal's order never leave),
 * and the clinic's tests, not the lab's processing steps (DNA Extraction). One rule, as SQL
 * fragments over `s` (sample), `o` (order), `p` (patient) and `t` (test), with the constants
 * they name.
 */
import { PROCESSING_STEP_TESTS, Portal } from '@platform/domain';

export const OUTSIDE_SQL_CONSTANTS = {
  researchPortal: Portal.Research,
  processingSteps: [...PROCESSING_STEP_TESTS],
};

export const OUTSIDE_SAMPLE_FROM = 'FROM samples s JOIN orders o ON o.id = s.order_id JOIN patients p ON p.id = s.patient_id';
/** Of samples read through OUTSIDE_SAMPLE_FROM: named patients, outside research (the account condition is the caller's). */
export const OUTSIDE_SAMPLE_SCOPE = 'p.study_id IS NULL AND o.portal <> :researchPortal AND o.research_project_id IS NULL';
/** The sample's clinic tests `t`. */
export const OUTSIDE_TEST_JOIN = 'JOIN tests t ON t.sample_id = s.id AND t.name NOT IN (:processingSteps)';
