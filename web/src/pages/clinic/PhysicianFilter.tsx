import { Select } from '@mantine/core';
import { useAccountPhysicians } from '../../api/clinic';

const ALL_PHYSICIANS = 'all';

/** Tests by physician (SPEC §7): which ordering physician's tests a list shows, or all of the account's. */
export function PhysicianFilter({ accountId, value, onChange }: { accountId: number; value: number | null; onChange: (physicianId: number | null) => void }) {
  const { data } = useAccountPhysicians(accountId);
  return (
    <Select
      label="Ordering physician"
      value={value === null ? ALL_PHYSICIANS : String(value)}
      onChange={(v) => onChange(!v || v === ALL_PHYSICIANS ? null : Number(v))}
      data={[{ value: ALL_PHYSICIANS, label: 'All physicians' }, ...(data ?? []).map((p) => ({ value: String(p.id), label: p.name }))]}
      allowDeselect={false}
      w={{ base: '100%', xs: 280 }}
    />
  );
}
