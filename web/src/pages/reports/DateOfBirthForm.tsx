import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { ApiError } from '../../api/fetcher';
import { verifyPatient, type PatientResultGreeting } from '../../api/reports';

const digits = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** The typed parts as YYYY-MM-DD, or a sentence saying what to fix. */
export function dateFromParts(month: string, day: string, year: string): { date: string } | { problem: string } {
  if (!month || !day || !year) return { problem: 'Please enter the month, day and year you were born.' };
  const m = Number(month);
  const d = Number(day);
  const y = Number(year);
  if (year.length !== 4) return { problem: 'Please enter the year with 4 digits, for example 1957.' };
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || m > 12 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || date.getTime() > Date.now()) {
    return { problem: 'That date does not exist. Please check the month, day and year.' };
  }
  return { date: `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` };
}

/**
 * Date of birth as three boxes (MM / DD / YYYY) with number keypads on phones; the cursor moves
 * on by itself when a box is full. Sent as YYYY-MM-DD.
 */
export function DateOfBirthForm({ barcode, token, onVerified, onLocked }: {
  barcode: string;
  token: string;
  onVerified: (greeting: PatientResultGreeting) => void;
  onLocked: () => void;
}) {
  const [month, setMonth] = useState('');
  const [day, setDay] = useState('');
  const [year, setYear] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const dayRef = useRef<HTMLInputElement>(null);
  const yearRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = dateFromParts(month, day, year);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    setChecking(true);
    try {
      onVerified(await verifyPatient({ barcode, token, dateOfBirth: parsed.date }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 423) {
        onLocked();
        return;
      }
      if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.serverMessage) {
        setProblem(error.fieldMessage('dateOfBirth') ?? error.serverMessage);
      } else {
        setProblem('Something went wrong on our side. Please try again in a moment.');
      }
    } finally {
      setChecking(false);
    }
  };

  const big = { input: { fontSize: 22, height: 56, textAlign: 'center' as const }, label: { fontSize: 16 } };
  return (
    <form onSubmit={submit} noValidate aria-label="Confirm your date of birth">
      <Stack gap="md">
        <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby="dob-hint">
          <legend style={{ fontSize: 18, fontWeight: 600, marginBottom: 4 }}>Date of birth</legend>
          <Text id="dob-hint" fz="md" c="dimmed" mb="xs">
            Month / Day / Year, for example 08 / 19 / 1957
          </Text>
          <Group gap="sm" wrap="nowrap" align="flex-end">
            <TextInput
              label="Month"
              placeholder="MM"
              inputMode="numeric"
              autoComplete="bday-month"
              maxLength={2}
              w={76}
              styles={big}
              value={month}
              onChange={(e) => {
                const v = digits(e.currentTarget.value, 2);
                setMonth(v);
                if (v.length === 2) dayRef.current?.focus();
              }}
            />
            <TextInput
              ref={dayRef}
              label="Day"
              placeholder="DD"
              inputMode="numeric"
              autoComplete="bday-day"
              maxLength={2}
              w={76}
              styles={big}
              value={day}
              onChange={(e) => {
                const v = digits(e.currentTarget.value, 2);
                setDay(v);
                if (v.length === 2) yearRef.current?.focus();
              }}
            />
            <TextInput
              ref={yearRef}
              label="Year"
              placeholder="YYYY"
              inputMode="numeric"
              autoComplete="bday-year"
              maxLength={4}
              w={110}
              styles={big}
              value={year}
              onChange={(e) => setYear(digits(e.currentTarget.value, 4))}
            />
          </Group>
        </fieldset>
        {problem && (
          <Alert color="red" variant="light" role="alert" styles={{ message: { fontSize: 17 } }}>
            {problem}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={checking}>
          Show my result
        </Button>
      </Stack>
    </form>
  );
}
