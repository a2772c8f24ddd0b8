// The storage plate's map alone, drawn from the plate it is given (the page's scans fill it in StoragePlatesPage.test.tsx).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { nextFreeWell, type StoragePlateView, type StorageWellView } from '@platform/domain';
import { renderPage } from '../../test/render';
import { StoragePlateMap } from './StoragePlateMap';

const lab1 = { id: 5, name: 'Leo Bench' };
const stored = (well: string, barcode: string, left: StorageWellView['statusBeforeStorage']): StorageWellView => ({
  well, label: barcode, kind: 'sample', sampleId: Number(barcode.slice(-4)), barcode, status: 'In Storage', statusBeforeStorage: left, placedBy: lab1, placedAt: '2026-11-20T10:00:00Z',
});

function plateOf(wells: StorageWellView[]): StoragePlateView {
  return {
    id: 7, name: 'P-0007', createdBy: lab1, createdAt: '2026-11-20T09:00:00Z', sampleCount: wells.length, controlCount: 0,
    freeWells: 96 - wells.length, wells, nextFreeWell: nextFreeWell(wells.map((w) => w.well)),
  };
}

describe('StoragePlateMap', () => {
  it('draws each well by the status its sample goes back to, named with its sample id, with a legend of the statuses shown', () => {
    renderPage(<StoragePlateMap plate={plateOf([stored('A1', '61000000000001', 'Completed'), stored('C1', '61000000000003', 'In Testing')])} selected={null} onSelect={() => {}} onDone={() => {}} />);
    expect(screen.getAllByText(/^Well [A-H]\d+/).filter((name) => name.closest('button'))).toHaveLength(96);
    expect(screen.getByText('Well A1: 61000000000001, In Storage (Completed when taken out)').closest('button')).toBeTruthy();
    expect(screen.getByText('Well C1: 61000000000003, In Storage (In Testing when taken out)').closest('button')).toBeTruthy();
    expect(screen.getByText('Well E1, empty').closest('button')).toBeTruthy();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(within(legend).getAllByRole('listitem').map((i) => i.textContent)).toEqual(['Completed', 'In Testing', 'empty']);
  });

  it('a click on a well chooses it', async () => {
    const user = userEvent.setup({ delay: null });
    const onSelect = vi.fn();
    renderPage(<StoragePlateMap plate={plateOf([])} selected={null} onSelect={onSelect} onDone={() => {}} />);
    await user.click(screen.getByText('Well F6, empty'));
    expect(onSelect).toHaveBeenCalledWith('F6');
  });
});
