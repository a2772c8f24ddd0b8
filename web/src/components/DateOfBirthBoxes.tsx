/**
 * A patient's date of birth, the same on every patient page (the order's details, the result
 * page): three boxes, Month / Day / Year, with number keypads on phones; the cursor moves on by
 * itself when a box is full. The form holds it as YYYY-MM-DD (composeDate); what is wrong is said
 * in the patient's words under the boxes, and the first box carries it (aria-invalid,
 * aria-describedby), so a refused form's focus lands there and it is read out.
 */
import { useEffect, useId, useRef } from 'react';
import { Group, Text, TextInput } from '@mantine/core';
import { usePatientText } from '../i18n/patient-language';

export interface DobParts {
  month: string;
  day: string;
  year: string;
}

export const EMPTY_DOB: DobParts = { month: '', day: '', year: '' };

/** The three boxes in order: what each holds, how it is written, how the browser fills it, how wide it is. */
const BOXES = [
  { part: 'month', placeholder: 'MM', autoComplete: 'bday-month', width: 76 },
  { part: 'day', placeholder: 'DD', autoComplete: 'bday-day', width: 76 },
  { part: 'year', placeholder: 'YYYY', autoComplete: 'bday-year', width: 110 },
] as const;

const digits = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** The boxes as a form holds them: '' when all are empty, else year-month-day as typed (partsOf reads it back). */
export function composeDate({ month, day, year }: DobParts): string {
  return month || day || year ? `${year}-${month}-${day}` : '';
}

/** The boxes of a form's value (composeDate's, or a stored YYYY-MM-DD); empty boxes for anything else. */
export function partsOf(date: string): DobParts {
  const m = /^(\d{0,4})-(\d{0,2})-(\d{0,2})$/.exec(date.trim());
  return m ? { year: m[1], month: m[2], day: m[3] } : EMPTY_DOB;
}

/** What is wrong with the typed date: its sentence's key in the message catalogue. */
export type DateProblem = 'dob.missing' | 'dob.yearDigits' | 'dob.notReal';

/** The typed boxes as YYYY-MM-DD, or what to fix. */
export function dateFromParts({ month, day, year }: DobParts): { date: string } | { problem: DateProblem } {
  if (!month || !day || !year) return { problem: 'dob.missing' };
  const m = Number(month);
  const d = Number(day);
  const y = Number(year);
  if (year.length !== 4) return { problem: 'dob.yearDigits' };
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || m > 12 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || date.getTime() > Date.now()) {
    return { problem: 'dob.notReal' };
  }
  return { date: `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` };
}

export function DateOfBirthBoxes({ value, onChange, error, required = false }: {
  value: DobParts;
  onChange: (next: DobParts) => void;
  /** What is wrong, in the patient's words (shown under the boxes and read with the first). */
  error?: string | null;
  required?: boolean;
}) {
  const { t } = usePatientText();
  const id = useId();
  const dayRef = useRef<HTMLInputElement>(null);
  const yearRef = useRef<HTMLInputElement>(null);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const monthRef = useRef<HTMLInputElement>(null);
  const refs = [monthRef, dayRef, yearRef];
  // The first box is described by the hint and the sentence under the three boxes (read when it
  // takes the focus). Set on the element: Mantine's input writes its own aria-describedby prop.
  useEffect(() => {
    monthRef.current?.setAttribute('aria-describedby', error ? `${hintId} ${errorId}` : hintId);
  }, [error, hintId, errorId]);
  const big = { input: { fontSize: 22, height: 56, textAlign: 'center' as const }, label: { fontSize: 16 } };
  const box = { inputMode: 'numeric' as const, styles: big, error: Boolean(error), withAsterisk: required };
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <legend style={{ fontSize: 18, fontWeight: 600, marginBottom: 4 }}>
        {t('dob.legend')}
        {required && <span aria-hidden style={{ color: 'var(--mantine-color-error)' }}> *</span>}
      </legend>
      <Text id={hintId} fz="md" c="dimmed" mb="xs">
        {t('dob.hint')}
      </Text>
      <Group gap="sm" wrap="nowrap" align="flex-end">
        {BOXES.map(({ part, placeholder, autoComplete, width }, i) => (
          <TextInput
            key={part}
            {...box}
            ref={refs[i]}
            label={t(`dob.${part}`)}
            placeholder={placeholder}
            autoComplete={autoComplete}
            maxLength={placeholder.length}
            w={width}
            value={value[part]}
            onChange={(e) => {
              const typed = digits(e.currentTarget.value, placeholder.length);
              onChange({ ...value, [part]: typed });
              // A full box moves the cursor on to the next one.
              if (typed.length === placeholder.length) refs[i + 1]?.current?.focus();
            }}
          />
        ))}
      </Group>
      {error && (
        <Text id={errorId} c="red.9" fz="md" mt={6} role="alert">
          {error}
        </Text>
      )}
    </fieldset>
  );
}
