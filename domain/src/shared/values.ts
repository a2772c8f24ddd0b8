/**
 * How SPEC §3's enumerations are kept: an object (for names in code) plus the list of its values
 * (for validation, database CHECKs and select boxes); and the yes / no / other answer every
 * questionnaire shares.
 */

export function valuesOf<T extends Record<string, string>>(o: T): T[keyof T][] {
  return Object.values(o) as T[keyof T][];
}

export const YesNoOther = { Yes: 'Yes', No: 'No', Other: 'Other' } as const;
export type YesNoOther = (typeof YesNoOther)[keyof typeof YesNoOther];
export const YES_NO_OTHER = valuesOf(YesNoOther);
