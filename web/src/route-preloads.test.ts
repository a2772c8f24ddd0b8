import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router-dom';
import { PATIENT_PRODUCTS, SIGN_IN_PORTALS } from '@platform/domain';
import { CLINIC_BASE_PATH, forgotPasswordPath, RESEARCH_BASE_PATH, resetPasswordPath, signInPath, SIGN_IN_PORTAL_INFO } from './portals';
import { ROUTE_PRELOADS } from './route-preloads';
import { routes } from './routes';

const moduleAt = (path: string) => ROUTE_PRELOADS.find((route) => route.pattern.test(path))?.module;

/** Whether routes.tsx draws the path with a lazy route (not the page-not-found one). */
const lazyRouteAt = (path: string) => {
  const matches = matchRoutes(routes, path) ?? [];
  return matches.length > 0 && matches[matches.length - 1].route.lazy !== undefined;
};

describe('the route chunks index.html names for a path', () => {
  const pages: [string, string][] = [
    ...SIGN_IN_PORTALS.flatMap((portal): [string, string][] => [
      [signInPath(portal), 'src/pages/auth/index.ts'],
      [forgotPasswordPath(portal), 'src/pages/auth/index.ts'],
      [resetPasswordPath(portal), 'src/pages/auth/index.ts'],
    ]),
    [`${SIGN_IN_PORTAL_INFO.provider.authBasePath}/request-access`, 'src/pages/auth/RequestAccessPage.tsx'],
    ['/reports/patient_result/41000000000001', 'src/pages/reports/index.ts'],
    ...PATIENT_PRODUCTS.map((product): [string, string] => [`/patient-portal/order/${product}/new`, 'src/pages/patient-portal/index.ts']),
    ['/patient-portal/order/complete', 'src/pages/patient-portal/index.ts'],
    ['/patient-portal/sample-follow-up/5/response', 'src/pages/patient-portal/SampleFollowUpResponsePage.tsx'],
    ['/registry/study/prostox/5/survey/new', 'src/pages/registry/RegistrySurveyPage.tsx'],
    [`${CLINIC_BASE_PATH}/12/pending`, 'src/pages/clinic/index.ts'],
    [`${CLINIC_BASE_PATH}/12`, 'src/pages/clinic/index.ts'],
    [`${RESEARCH_BASE_PATH}/12/tests`, 'src/pages/research/index.ts'],
    [`${SIGN_IN_PORTAL_INFO.lab.authBasePath}/review`, 'src/pages/lab/index.ts'],
    [SIGN_IN_PORTAL_INFO.lab.authBasePath, 'src/pages/lab/index.ts'],
    [`${SIGN_IN_PORTAL_INFO.admin.authBasePath}/provider/users`, 'src/pages/admin/index.ts'],
  ];

  it.each(pages)('%s: %s, a lazy route of routes.tsx', (path, module) => {
    expect(moduleAt(path)).toBe(module);
    expect(lazyRouteAt(path)).toBe(true);
  });

  it('names nothing for a path that draws no lazy page', () => {
    expect(moduleAt('/')).toBeUndefined();
    expect(moduleAt('/no-such-page')).toBeUndefined();
    expect(moduleAt('/provider')).toBeUndefined();
  });
});
