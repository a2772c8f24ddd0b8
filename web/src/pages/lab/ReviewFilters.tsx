import { useRef } from 'react';
import { Badge, Button, CloseButton, Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { APPROVAL_GROUP_LABELS, APPROVAL_GROUP_TESTS, APPROVAL_GROUPS, PcrPlateStatus, type ApprovalGroup } from '@platform/domain';
import { usePcrPlates, type ReviewFilters as Filters } from '../../api/lab';
import { useLabTechnicians } from '../../api/lims';

/** Where each filter lives in the page's URL (a filtered view can be linked to and reloaded). */
const PARAM = { group: 'group', jobId: 'job', plateId: 'plate', barcode: 'barcode', test: 'test', enteredBy: 'by' } as const satisfies Record<keyof Filters, string>;

const idParam = (value: string | null) => Number(value) || null;

/** The review list's filters, read from and written to the URL. */
export function useReviewFilters(): { filters: Filters; setFilter: (patch: Partial<Filters>) => void; clear: () => void; active: boolean } {
  const [params, setParams] = useSearchParams();
  const group = params.get(PARAM.group);
  const filters: Filters = {
    group: APPROVAL_GROUPS.includes(group as ApprovalGroup) ? (group as ApprovalGroup) : null,
    jobId: idParam(params.get(PARAM.jobId)),
    plateId: idParam(params.get(PARAM.plateId)),
    barcode: params.get(PARAM.barcode) || null,
    test: params.get(PARAM.test) || null,
    enteredBy: idParam(params.get(PARAM.enteredBy)),
  };
  const setFilter = (patch: Partial<Filters>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch) as [keyof Filters, unknown][]) {
      if (value === null || value === undefined || value === '') next.delete(PARAM[key]);
      else next.set(PARAM[key], String(value));
    }
    setParams(next, { replace: true });
  };
  const clear = () => setParams(new URLSearchParams(), { replace: true });
  return { filters, setFilter, clear, active: Object.values(filters).some((v) => v !== null) };
}

/** The tests the review list may show for a group (every reviewable test without one). */
function testsOf(group: ApprovalGroup | null | undefined): string[] {
  return group ? [...APPROVAL_GROUP_TESTS[group]] : APPROVAL_GROUPS.flatMap((g) => APPROVAL_GROUP_TESTS[g]);
}

/** The filter bar: approval group, barcode, test, who entered it, plate, and the import when one is chosen. */
export function ReviewFilterBar({ filters, setFilter, clear, active }: ReturnType<typeof useReviewFilters>) {
  const { data: technicians } = useLabTechnicians();
  const { data: plates } = usePcrPlates({ page: 1, pageSize: 50, status: PcrPlateStatus.Resulted });
  const people = (technicians ?? []).filter((p) => p.userId !== null).map((p) => ({ value: String(p.userId), label: p.name }));
  const plateOptions = (plates?.rows ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  if (filters.plateId && !plateOptions.some((o) => o.value === String(filters.plateId))) plateOptions.unshift({ value: String(filters.plateId), label: `Plate ${filters.plateId}` });
  const tests = testsOf(filters.group);
  const barcodeInput = useRef<HTMLInputElement>(null);

  return (
    <>
      <SegmentedControl
        aria-label="Which results"
        value={filters.group ?? 'all'}
        onChange={(v) => setFilter({ group: v === 'all' ? null : (v as ApprovalGroup), test: filters.test && testsOf(v === 'all' ? null : (v as ApprovalGroup)).includes(filters.test) ? filters.test : null })}
        data={[{ value: 'all', label: 'All' }, ...APPROVAL_GROUPS.map((g) => ({ value: g, label: APPROVAL_GROUP_LABELS[g] }))]}
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        {/* Uncontrolled: the URL catches up after each key, and a scanner types faster than that (a controlled box lost digits). */}
        <TextInput ref={barcodeInput} label="Barcode" placeholder="Scan or type part of one" defaultValue={filters.barcode ?? ''} onChange={(e) => setFilter({ barcode: e.currentTarget.value.trim() })} w={220} ff="monospace" />
        <Select label="Test" placeholder="Any test" data={tests} value={filters.test ?? null} onChange={(v) => setFilter({ test: v })} clearable w={220} />
        <Select label="Entered by" placeholder="Anyone" data={people} value={filters.enteredBy ? String(filters.enteredBy) : null} onChange={(v) => setFilter({ enteredBy: v ? Number(v) : null })} clearable w={200} />
        <Select label="Plate" placeholder="Any plate" data={plateOptions} value={filters.plateId ? String(filters.plateId) : null} onChange={(v) => setFilter({ plateId: v ? Number(v) : null })} clearable searchable w={200} />
        {filters.jobId && (
          <Badge size="lg" variant="light" rightSection={<CloseButton size="xs" aria-label="Show every import" onClick={() => setFilter({ jobId: null })} />}>Import job {filters.jobId}</Badge>
        )}
        {active && <Button variant="subtle" onClick={() => { clear(); if (barcodeInput.current) barcodeInput.current.value = ''; }}>Clear filters</Button>}
      </Group>
    </>
  );
}
