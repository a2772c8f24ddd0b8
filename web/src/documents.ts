/**
 * The static documents of SPEC §2, written by us and generated into web/public/docs/ by
 * scripts/make-static-docs.ts (which reads this list). Served as /docs/<file>.
 */
export type DocumentAudience = 'clinic' | 'research' | 'patient';

export interface StaticDocument {
  id: string;
  file: string;
  title: string;
  description: string;
  audiences: readonly DocumentAudience[];
}

export const STATIC_DOCUMENTS = [
  {
    id: 'swabbing-instructions',
    file: 'swabbing-instructions.pdf',
    title: 'Buccal swab collection instructions',
    description: 'Step-by-step cheek swab collection and kit return, for patients and clinic staff.',
    audiences: ['clinic', 'research', 'patient'],
  },
  {
    id: 'research-protocol',
    file: 'research-protocol.pdf',
    title: 'Research protocol summary',
    description: 'Aims, eligibility, procedures and data handling of the radiation-toxicity research study.',
    audiences: ['research'],
  },
  {
    id: 'research-consent',
    file: 'research-consent.pdf',
    title: 'Research consent form',
    description: 'The informed consent form a research participant reads and signs before sampling.',
    audiences: ['research'],
  },
  {
    id: 'financial-assistance',
    file: 'prostox-ultra-financial-assistance.pdf',
    title: 'PROSTOX ultra financial assistance program',
    description: 'Who qualifies for the reduced price, how to apply and what it costs.',
    audiences: ['clinic', 'patient'],
  },
  {
    id: 'patient-information',
    file: 'patient-information.pdf',
    title: 'Patient information sheet',
    description: 'One page for patients: what the test is, how it is done and how results are shared.',
    audiences: ['clinic', 'patient'],
  },
  {
    id: 'tech-note',
    file: 'tech-note.pdf',
    title: 'Technical note: germline radiation-toxicity risk tests',
    description: 'How the tests work, what they report and their limitations, for clinicians.',
    audiences: ['clinic', 'research'],
  },
] as const satisfies readonly StaticDocument[];

export const DOCS_BASE_PATH = '/docs';

export const documentHref = (doc: StaticDocument) => `${DOCS_BASE_PATH}/${doc.file}`;

export function documentsFor(audience: DocumentAudience): StaticDocument[] {
  return STATIC_DOCUMENTS.filter((doc) => (doc.audiences as readonly DocumentAudience[]).includes(audience));
}
