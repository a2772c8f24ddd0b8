import { beforeAll, describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { UserKind } from '@platform/domain';
import { routes } from '../routes';
import type { StoredSessionUser } from '../session/stored-user-shape';
import { choosePatientLanguage } from '../i18n/patient-language';
import { followPatientLanguage } from './patient-titles';
import { documentTitleOf } from './route-title';

const physician: StoredSessionUser = {
  portal: 'provider', userId: 7, kind: UserKind.Provider, email: 'x@demo.test', firstName: 'X', lastName: 'Y',
  currentAccountId: 12, currentAccountName: 'Riverside Oncology', currentAccountRole: null,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};

function titleAt(path: string, user: StoredSessionUser | null = null): string {
  const matches = matchRoutes(routes, path) ?? [];
  return documentTitleOf(matches.map((m) => ({ handle: m.route.handle, params: m.params, pathname: m.pathname })), user);
}

describe('document titles', () => {
  beforeAll(() => followPatientLanguage()); // as the shell does when a patient page shows
  it('name the page, the account of the URL and the platform', () => {
    expect(titleAt('/provider-clinic/12/pending', physician)).toBe('Pending tests · Riverside Oncology · Prostox Platform');
    expect(titleAt('/provider-clinic/12/prostox-through-mirakind', physician)).toBe('Order PROSTOX through MiraKind · Riverside Oncology · Prostox Platform');
  });

  it('name the portal where there is no account (or not the stored one yet)', () => {
    expect(titleAt('/provider/login')).toBe('Sign in · Clinical Portal · Prostox Platform');
    expect(titleAt('/lab_toolbox/intake_tool')).toBe('Sample intake · Lab Toolbox · Prostox Platform');
    expect(titleAt('/admin/provider/approve')).toBe('Provider approvals · Administration · Prostox Platform');
    expect(titleAt('/provider-clinic/99/pending', physician)).toBe('Pending tests · Clinical Portal · Prostox Platform');
  });

  it('name no portal on the patient pages', () => {
    expect(titleAt('/reports/patient_result/PX12345?token=abc')).toBe('Your test result · Prostox Platform');
    expect(titleAt('/patient-portal/order/kras/new')).toBe('Order KRAS · Prostox Platform');
    expect(titleAt('/registry/study/prostox/5/survey/new')).toBe('Registry survey · Prostox Platform');
  });

  it('are in the patient pages\' language, and follow its switch (staff pages stay English)', () => {
    choosePatientLanguage('es');
    try {
      expect(titleAt('/reports/patient_result/PX12345?token=abc')).toBe('Su resultado de la prueba · Prostox Platform');
      expect(titleAt('/patient-portal/order/kras/new')).toBe('Pedir KRAS · Prostox Platform');
      expect(titleAt('/patient-portal/order/complete')).toBe('Pedido recibido · Prostox Platform');
      expect(titleAt('/registry/study/prostox/5/survey/new')).toBe('Encuesta del registro · Prostox Platform');
      expect(titleAt('/patient-portal/sample-follow-up/3/response')).toBe('Una pregunta sobre su muestra · Prostox Platform');
      expect(titleAt('/provider-clinic/12/pending', physician)).toBe('Pending tests · Riverside Oncology · Prostox Platform');
    } finally {
      choosePatientLanguage('en');
    }
    expect(titleAt('/patient-portal/order/complete')).toBe('Order received · Prostox Platform');
  });

  it('say "Page not found" on every catch-all', () => {
    for (const path of ['/nowhere', '/provider-clinic/12/nowhere', '/admin/provider/nowhere', '/registry/x', '/patient-portal/x']) {
      expect(titleAt(path, physician), path).toMatch(/^Page not found · /);
    }
  });

  it('exist for every page of the route table', () => {
    const untitled: string[] = [];
    const visit = (list: RouteObject[], prefix: string) => {
      for (const route of list) {
        const path = route.path?.startsWith('/') ? route.path : `${prefix}/${route.path ?? ''}`.replace(/\/+/g, '/');
        const isPage = Boolean(route.lazy) || (route.element !== undefined && !route.children && (route.element as { type?: { name?: string } })?.type?.name !== 'Navigate');
        const handle = route.handle as { title?: string; titleKey?: string } | undefined;
        if (isPage && !handle?.title && !handle?.titleKey) untitled.push(path);
        if (route.children) visit(route.children, path);
      }
    };
    visit(routes, '');
    expect(untitled).toEqual([]);
  });
});
