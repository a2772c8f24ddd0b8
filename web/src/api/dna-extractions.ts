/**
 * DNA extractions (/api/lab-toolbox/dna-extractions…): the extractions an import wrote, the
 * flagged ones still waiting for a decision, and the decision (re-extraction or rejection). The
 * run itself is uploaded, checked and committed through the import endpoints of lab.ts.
 */
import type { ExtractionDecisionAnswer, ExtractionOutcome, ExtractionView } from '@platform/domain';
import { apiFetch, queryString } from './fetcher';
import { useApiPage } from './query';
import { labApiPath } from './lab';

export type { ExtractionDecisionAnswer, ExtractionView };

export type ExtractionListParams = {
  page: number;
  pageSize: number;
  jobId?: number | null;
  flagged?: boolean;
  awaitingDecision?: boolean;
  barcode?: string | null;
};

/** One page of imported extractions (null params: nothing asked yet). */
export const useDnaExtractions = (params: ExtractionListParams | null) =>
  useApiPage<ExtractionView>(params ? labApiPath(`dna-extractions?${queryString(params)}`) : null, { errorHeading: 'Error retrieving DNA extractions' });

/** Sends a flagged sample to re-extraction or rejects it (quantity not sufficient). */
export const decideExtraction = (extractionId: number, outcome: ExtractionOutcome) =>
  apiFetch<ExtractionDecisionAnswer>(labApiPath(`dna-extractions/${extractionId}/decide`), { method: 'POST', body: { outcome } });
