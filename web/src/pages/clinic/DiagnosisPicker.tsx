/**
 * The order's diagnosis codes: search the ICD-10-CM list by code ("C61", "Z85.4") or by words
 * ("prostate cancer"), add one or more from the matches, remove any. Every result is a button (a
 * keyboard reaches each with Tab and adds it with Enter); the chosen codes are a list with their
 * own Remove buttons.
 */
import { useRef, useState } from 'react';
import { Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DIAGNOSIS_CODE_SYSTEM, DIAGNOSIS_SEARCH_MIN_LENGTH, ORDER_MAX_DIAGNOSES } from '@platform/domain';
import { useDiagnosisSearch, type DiagnosisCodeView } from '../../api/clinical-orders';

const LIST_STYLE = { listStyle: 'none', padding: 0, margin: 0 } as const;

export function DiagnosisPicker({ accountId, value, onChange, required, error }: {
  accountId: number;
  value: DiagnosisCodeView[];
  onChange: (next: DiagnosisCodeView[]) => void;
  required: boolean;
  error?: React.ReactNode;
}) {
  const [q, setQ] = useState('');
  // After adding a code its button is gone: the focus goes back to the search (keyboard users keep their place).
  const input = useRef<HTMLInputElement>(null);
  const add = (d: DiagnosisCodeView) => {
    onChange([...value, d]);
    setQ('');
    input.current?.focus();
  };
  const [debounced] = useDebouncedValue(q, 250);
  const { data, isLoading } = useDiagnosisSearch(accountId, debounced);
  // Both: the matches go as soon as the search is cleared (an added code clears it), not a debounce later.
  const searching = q.trim().length >= DIAGNOSIS_SEARCH_MIN_LENGTH && debounced.trim().length >= DIAGNOSIS_SEARCH_MIN_LENGTH;
  const chosen = new Set(value.map((d) => d.code));
  const results = searching ? (data?.rows ?? []).filter((d) => !chosen.has(d.code)) : [];
  const full = value.length >= ORDER_MAX_DIAGNOSES;

  return (
    <Stack gap="sm">
      {value.length > 0 && (
        <Stack gap={6} component="ul" aria-label="Diagnosis codes of this order" style={LIST_STYLE}>
          {value.map((d) => (
            <Paper key={d.code} withBorder p="xs" radius="md" component="li">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap">
                  <Badge variant="light" size="lg" radius="sm" style={{ flexShrink: 0 }}>{d.display}</Badge>
                  <Text fz="sm">{d.description}</Text>
                </Group>
                <Button variant="subtle" color="red" size="xs" onClick={() => onChange(value.filter((v) => v.code !== d.code))} aria-label={`Remove ${d.display}`}>
                  Remove
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <TextInput
        label={`Find a diagnosis (${DIAGNOSIS_CODE_SYSTEM})`}
        description={`Type a code (C61, Z85.46) or words (prostate cancer). ${required ? 'At least one is required: the lab bills this test to the patient’s insurer.' : 'Optional for research tests.'}`}
        placeholder="e.g. prostate cancer, or C61"
        ref={input}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        rightSection={isLoading ? <Loader size={16} /> : null}
        autoComplete="off"
        withAsterisk={required}
        error={error}
        disabled={full}
      />
      {full && <Text fz="sm" c="dimmed">An order carries at most {ORDER_MAX_DIAGNOSES} diagnosis codes.</Text>}
      {searching && !full && (
        <Stack gap={6} component="ul" aria-label="Matching diagnosis codes" style={LIST_STYLE}>
          {results.map((d) => (
            <li key={d.code}>
              {/* The button's name is its text: "Add C61 Malignant neoplasm of prostate". */}
              <UnstyledButton onClick={() => add(d)} w="100%">
                <Paper withBorder p="xs" radius="md" style={{ cursor: 'pointer' }}>
                  <Text fz="sm">
                    <Text span c="dimmed" fz="sm">Add</Text>{' '}
                    <Text span fw={700} ff="monospace">{d.display}</Text>{' '}
                    {d.description}
                  </Text>
                </Paper>
              </UnstyledButton>
            </li>
          ))}
          {!isLoading && data && results.length === 0 && <Text c="dimmed" fz="sm">No {DIAGNOSIS_CODE_SYSTEM} code matches “{debounced.trim()}”.</Text>}
          {data && data.total > data.rows.length && (
            <Text c="dimmed" fz="sm">Showing {data.rows.length} of {data.total}: type more to narrow the search.</Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
