import type { ReactNode } from 'react';
import { Button, Checkbox, Text } from '@mantine/core';
import { ORDER_ATTESTATIONS, type Attestations } from '@platform/domain';

const COUNT_WORDS = ['none', 'one', 'both', 'all three', 'all four'];

/**
 * The ordering attestations of SPEC §5 that apply (all four unless told: a patient's own order
 * paid by the patient asks three, attestationsFor) as checkboxes, a "Confirm all" shortcut and the
 * form's error under them: one list for the clinic's order and the sign-off of a patient's order.
 */
export function AttestationChecklist({ value, onChange, error, attestations = ORDER_ATTESTATIONS }: {
  value: Attestations;
  onChange: (next: Attestations) => void;
  error?: ReactNode;
  attestations?: typeof ORDER_ATTESTATIONS;
}) {
  const confirmAll = () => onChange({ ...value, ...Object.fromEntries(attestations.map((a) => [a.key, true])) });
  return (
    <>
      {attestations.map((a) => (
        <Checkbox key={a.key} size="md" label={a.label} checked={value[a.key]} onChange={(e) => onChange({ ...value, [a.key]: e.currentTarget.checked })} />
      ))}
      <Button variant="subtle" size="xs" style={{ alignSelf: 'flex-start' }} onClick={confirmAll}>
        Confirm {COUNT_WORDS[attestations.length] ?? 'all'}
      </Button>
      {error && (
        <Text c="red.9" fz="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
