import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ImportToolPage } from './ImportToolPage';

describe('ImportToolPage', () => {
  it('a stale link to an import says on the page that it does not exist, with no error modal, and asks once', async () => {
    const sent = mockApi({ 'GET /lab-toolbox/jobs/999': apiRefusal(404, 'not_found', 'Job not found') });
    renderPage(<><ImportToolPage kind="cancer-toxicity" title="Toxicity risk import" /><ErrorModalHost /></>, {
      path: '/lab_toolbox/cfrt_toxicity_import_tool', route: '/lab_toolbox/cfrt_toxicity_import_tool?job=999',
    });
    expect(await screen.findByText('This import does not exist')).toBeTruthy();
    // Before: only "Request failed with status code 404" in a modal (issue 25, item 12).
    expect(screen.queryByText('Request failed with status code 404')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.filter((r) => r.path === '/lab-toolbox/jobs/999')).toHaveLength(1);
  });
});
