import { Group, Pagination, Select, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, formatCount } from '@platform/domain';

export const PAGE_SIZES = [DEFAULT_PAGE_SIZE, 25, 50, 100].map(String);

/** The one pager of every list: "11–20 of 42", the page buttons and (given onPageSize) the page size. */
export function Pager({ page, pageSize, total, onPage, onPageSize, noun = 'samples' }: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Without it the page size is fixed (no "Rows per page"). */
  onPageSize?: (size: number) => void;
  noun?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text fz="sm" c="dimmed" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${first}–${last} of ${formatCount(total)} ${noun}`}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Pagination total={pages} value={Math.min(page, pages)} onChange={onPage} size="sm" siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        {onPageSize && (
          <Select
            aria-label="Rows per page"
            data={PAGE_SIZES}
            value={String(pageSize)}
            onChange={(v) => v && onPageSize(Number(v))}
            w={80}
            size="xs"
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      </Group>
    </Group>
  );
}
