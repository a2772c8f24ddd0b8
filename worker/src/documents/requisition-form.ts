import type { WorkerDeps } from '../processors/types';

export async function renderRequisitionForm(_deps: WorkerDeps, _sampleId: number): Promise<Buffer> {
  throw new Error('requisition form is being written');
}
