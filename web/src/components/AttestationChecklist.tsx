import type { ReactNode } from 'react';
import { Button, Checkbox, Text } from '@mantine/core';
import { ORDER_ATTESTATIONS, type Attestations } from '@platform/domain';

const ALL_ATTESTED = Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, true])) as Attestations;

/**
 * The four ordering attestations of SPEC §5 as checkboxes, a "Confirm all four" shortcut and the
 * form's error under them: one list for the clinic's order and the sign-off of a patient's order.
 */
export function AttestationChecklist({ value, onChange, error }: { value: Attestations; onChange: (next: Attestations) => void; error?: ReactNode }) {
  return (
    <>
      {ORDER_ATTESTATIONS.map((a) => (
        <Checkbox key={a.key} size="md" label={a.label} checked={value[a.key]} onChange={(e) => onChange({ ...value, [a.key]: e.currentTarget.checked })} />
      ))}
      <Button variant="subtle" size="xs" style={{ alignSelf: 'flex-start' }} onClick={() => onChange(ALL_ATTESTED)}>
        Confirm all four
      </Button>
      {error && (
        <Text c="red.9" fz="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
