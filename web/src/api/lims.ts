/**
 * The LIMS reads the SPA uses (/api/lims/…, lab users only): the lab's technicians (who entered
 * a result, for the review list's filter).
 */
import type { LimsTechnician } from '@platform/domain';
import { useApiQuery } from './query';

export type { LimsTechnician };

export const LIMS_TECHNICIANS_PATH = '/lims/contact/technicians';

export const useLabTechnicians = () => useApiQuery<LimsTechnician[]>(LIMS_TECHNICIANS_PATH, { errorHeading: 'Error retrieving lab technicians' });
