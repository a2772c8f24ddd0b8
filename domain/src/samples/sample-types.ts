/** The sample types of SPEC §3. */
import { valuesOf } from '../shared/values';

export const SampleType = {
  BuccalSwab: 'Buccal Swab',
  Blood: 'Blood',
  Saliva: 'Saliva',
  Plasma: 'Plasma',
  Oropharyngeal: 'Oropharyngeal',
  NasalCavity: 'Nasal Cavity',
  Nasopharyngeal: 'Nasopharyngeal',
} as const;
export type SampleType = (typeof SampleType)[keyof typeof SampleType];
export const SAMPLE_TYPES = valuesOf(SampleType);
export const RESPIRATORY_SAMPLE_TYPES: readonly SampleType[] = [
  SampleType.Oropharyngeal,
  SampleType.NasalCavity,
  SampleType.Saliva,
];
