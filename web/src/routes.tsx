/**
 * Every route of the SPA (SPEC §2), in one table. Each portal's pages are their own chunk, loaded
 * when first visited; the sign-in pages of all four portals share one. Layout follows the path:
 * the research portal and /registry are plain, everything else has the provider sidebar.
 */
import { Navigate, type RouteObject } from 'react-router-dom';
import { PATIENT_PRODUCT_NAMES, PATIENT_PRODUCTS, type SignInPortal } from '@platform/domain';
import { PlainLayout } from './layouts/PlainLayout';
import { ProviderLayout } from './layouts/ProviderLayout';
import { NotFoundPage } from './pages/NotFoundPage';
import { ADMIN_HOME_PATH, CLINIC_BASE_PATH, RESEARCH_BASE_PATH, signInPath, SIGN_IN_PORTAL_INFO } from './portals';
import { RequireSignIn } from './session/RequireSignIn';
import { pageTitle, patientPageTitle } from './shell/route-title';
import { RootShell } from './shell/RootShell';

const authPages = () => import('./pages/auth');
const adminPages = () => import('./pages/admin');
const clinicPages = () => import('./pages/clinic');
const researchPages = () => import('./pages/research');
const labPages = () => import('./pages/lab');
const providerInfoPages = () => import('./pages/provider');
const patientPortalPages = () => import('./pages/patient-portal');

/** login, forgot-password, reset-password and accept-invitation (the emailed links) of one portal. */
function authRoutes(portal: SignInPortal): RouteObject[] {
  return [
    { path: 'login', handle: pageTitle('Sign in'), lazy: async () => { const { SignInPage } = await authPages(); return { element: <SignInPage portal={portal} /> }; } },
    { path: 'forgot-password', handle: pageTitle('Reset your password'), lazy: async () => { const { ForgotPasswordPage } = await authPages(); return { element: <ForgotPasswordPage portal={portal} /> }; } },
    { path: 'reset-password', handle: pageTitle('Choose a new password'), lazy: async () => { const { ResetPasswordPage } = await authPages(); return { element: <ResetPasswordPage portal={portal} /> }; } },
    { path: 'accept-invitation', handle: pageTitle('Accept an invitation'), lazy: async () => { const { AcceptInvitationPage } = await authPages(); return { element: <AcceptInvitationPage portal={portal} /> }; } },
  ];
}

const NOT_FOUND = pageTitle('Page not found');

const toSignIn = (portal: SignInPortal) => <Navigate to={signInPath(portal)} replace />;

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    HydrateFallback: () => null,
    children: [
      { path: '/', element: toSignIn('provider') },

      // Plain layout: the research portal and the registry.
      {
        path: RESEARCH_BASE_PATH,
        element: <PlainLayout />,
        children: [
          { index: true, element: toSignIn('research') },
          ...authRoutes('research'),
          {
            path: ':accountId',
            element: <RequireSignIn portal="research" />,
            children: [
              { index: true, handle: pageTitle('Home'), lazy: () => researchPages().then((m) => ({ Component: m.ResearchHomePage })) },
              { path: 'order', handle: pageTitle('Order a research test'), lazy: () => researchPages().then((m) => ({ Component: m.ResearchOrderPage })) },
              { path: 'tests', handle: pageTitle('Research tests'), lazy: () => researchPages().then((m) => ({ Component: m.ResearchTestsPage })) },
              { path: 'patient/:patientId', handle: pageTitle('Participant'), lazy: () => researchPages().then((m) => ({ Component: m.ParticipantPage })) },
            ],
          },
          { path: ':accountId/*', element: <NotFoundPage />, handle: NOT_FOUND },
        ],
      },
      {
        path: '/registry',
        element: <PlainLayout />,
        children: [
          // The PROSTOX registry's follow-up survey (no sign-in: the emailed single-use link).
          { path: 'study/prostox/:sampleId/survey/new', handle: patientPageTitle('registrySurvey'), lazy: () => import('./pages/registry/RegistrySurveyPage').then((m) => ({ Component: m.RegistrySurveyPage })) },
          { path: '*', element: <NotFoundPage />, handle: NOT_FOUND },
        ],
      },

      // Provider layout (110px sidebar): everything else.
      {
        element: <ProviderLayout />,
        children: [
          { path: '/404', element: <NotFoundPage />, handle: NOT_FOUND },
          {
            path: SIGN_IN_PORTAL_INFO.admin.authBasePath,
            children: [
              ...authRoutes('admin'),
              {
                element: <RequireSignIn portal="admin" />,
                children: [
                  { index: true, handle: pageTitle('Home'), lazy: () => adminPages().then((m) => ({ Component: m.AdminHomePage })) },
                  {
                    path: 'provider',
                    children: [
                      { index: true, element: <Navigate to={ADMIN_HOME_PATH} replace /> },
                      { path: 'approve', handle: pageTitle('Provider approvals'), lazy: () => adminPages().then((m) => ({ Component: m.ApproveProvidersPage })) },
                      { path: 'register', handle: pageTitle('Register a provider'), lazy: () => adminPages().then((m) => ({ Component: m.RegisterProviderPage })) },
                      { path: 'account/new', handle: pageTitle('New account'), lazy: () => adminPages().then((m) => ({ Component: m.NewAccountPage })) },
                      { path: 'accounts', handle: pageTitle('Accounts'), lazy: () => adminPages().then((m) => ({ Component: m.AccountsPage })) },
                      { path: 'accounts/:accountId', handle: pageTitle('Account'), lazy: () => adminPages().then((m) => ({ Component: m.AccountPage })) },
                      { path: 'users', handle: pageTitle('Provider users'), lazy: () => adminPages().then((m) => ({ Component: m.UsersPage })) },
                      { path: 'lab-toolbox', handle: pageTitle('Lab toolbox users'), lazy: () => adminPages().then((m) => ({ Component: m.LabToolboxUsersPage })) },
                      { path: 'insurance', handle: pageTitle('Insurance plans'), lazy: () => adminPages().then((m) => ({ Component: m.InsurancePlansPage })) },
                      { path: 'financial-aid', handle: pageTitle('Financial aid'), lazy: () => adminPages().then((m) => ({ Component: m.FinancialAidPage })) },
                      { path: 'emails', handle: pageTitle('Emails'), lazy: () => adminPages().then((m) => ({ Component: m.EmailsPage })) },
                      { path: 'jobs', handle: pageTitle('Job monitor'), lazy: () => adminPages().then((m) => ({ Component: m.JobsPage })) },
                      { path: 'api-clients', handle: pageTitle('API clients'), lazy: () => adminPages().then((m) => ({ Component: m.ApiClientsPage })) },
                      { path: 'hl7', handle: pageTitle('HL7 interfaces'), lazy: () => adminPages().then((m) => ({ Component: m.Hl7InterfacesPage })) },
                      { path: 'public-health', handle: pageTitle('Public health reporting'), lazy: () => adminPages().then((m) => ({ Component: m.PublicHealthPage })) },
                      { path: 'audit-trail', handle: pageTitle('Audit trail'), lazy: () => adminPages().then((m) => ({ Component: m.AuditTrailPage })) },
                      { path: 'patient-release', handle: pageTitle('Patient release'), lazy: () => adminPages().then((m) => ({ Component: m.PatientReleasePage })) },
                      { path: 'turnaround-targets', handle: pageTitle('Turnaround targets'), lazy: () => adminPages().then((m) => ({ Component: m.TurnaroundTargetsPage })) },
                      { path: 'research-projects', handle: pageTitle('Research projects'), lazy: () => adminPages().then((m) => ({ Component: m.ResearchProjectsPage })) },
                      { path: 'research-projects/:projectId', handle: pageTitle('Research project'), lazy: () => adminPages().then((m) => ({ Component: m.ResearchProjectPage })) },
                    ],
                  },
                ],
              },
              // /admin/provider/{anything else} (SPEC §2 "/admin/provider/{page}").
              { path: 'provider/*', element: <NotFoundPage />, handle: NOT_FOUND },
            ],
          },
          {
            path: SIGN_IN_PORTAL_INFO.lab.authBasePath,
            children: [
              ...authRoutes('lab'),
              {
                element: <RequireSignIn portal="lab" />,
                children: [
                  { index: true, handle: pageTitle('Home'), lazy: () => labPages().then((m) => ({ Component: m.LabToolboxHomePage })) },
                  { path: 'intake_tool', handle: pageTitle('Sample intake'), lazy: () => labPages().then((m) => ({ Component: m.IntakePage })) },
                  { path: 'pcr_register', handle: pageTitle('PCR register'), lazy: () => labPages().then((m) => ({ Component: m.PcrRegisterPage })) },
                  { path: 'pcr_resulting', handle: pageTitle('PCR resulting'), lazy: () => labPages().then((m) => ({ Component: m.PcrResultingPage })) },
                  { path: 'cfrt_toxicity_import_tool', handle: pageTitle('Toxicity risk import'), lazy: () => labPages().then((m) => ({ element: <m.ImportToolPage key="cancer-toxicity" kind="cancer-toxicity" title="Toxicity risk import" /> })) },
                  { path: 'kras_prostate_immune_import_tool', handle: pageTitle('KRAS prostate immune import'), lazy: () => labPages().then((m) => ({ element: <m.ImportToolPage key="kras" kind="kras" title="KRAS prostate immune import" /> })) },
                  { path: 'dna_extraction_import_tool', handle: pageTitle('DNA extraction import'), lazy: () => labPages().then((m) => ({ element: <m.ImportToolPage key="dna-extraction" kind="dna-extraction" title="DNA extraction import" /> })) },
                  { path: 'review', handle: pageTitle('Review and approve'), lazy: () => labPages().then((m) => ({ Component: m.ReviewPage })) },
                  { path: 'storage_plate_import_tool', handle: pageTitle('Storage plates'), lazy: () => labPages().then((m) => ({ Component: m.StoragePlatesPage })) },
                  { path: 'turnaround', handle: pageTitle('Turnaround'), lazy: () => labPages().then((m) => ({ Component: m.TurnaroundPage })) },
                  { path: 'worklist', handle: pageTitle('Worklist'), lazy: () => labPages().then((m) => ({ Component: m.WorklistPage })) },
                ],
              },
            ],
          },
          {
            path: SIGN_IN_PORTAL_INFO.provider.authBasePath,
            children: [
              { index: true, element: toSignIn('provider') },
              ...authRoutes('provider'),
              // Its own small chunk: the sign-in page links it without loading it.
              { path: 'request-access', handle: pageTitle('Request access'), lazy: () => import('./pages/auth/RequestAccessPage').then((m) => ({ Component: m.RequestAccessPage })) },
              // Public information for physicians: no sign-in.
              { path: 'prostox-faq', handle: pageTitle('PROSTOX questions and answers'), lazy: () => providerInfoPages().then((m) => ({ Component: m.ProstoxFaqPage })) },
              { path: 'prostox-ultra-billing', handle: pageTitle('PROSTOX ultra billing and prices'), lazy: () => providerInfoPages().then((m) => ({ Component: m.ProstoxUltraBillingPage })) },
            ],
          },
          {
            path: CLINIC_BASE_PATH,
            children: [
              { index: true, element: toSignIn('provider') },
              {
                path: ':accountId',
                element: <RequireSignIn portal="provider" />,
                children: [
                  { index: true, handle: pageTitle('Home'), lazy: () => clinicPages().then((m) => ({ Component: m.ClinicHomePage })) },
                  { path: 'order', handle: pageTitle('Order a test'), lazy: () => clinicPages().then((m) => ({ Component: m.OrderPage })) },
                  { path: 'pending', handle: pageTitle('Pending tests'), lazy: () => clinicPages().then((m) => ({ Component: m.PendingPage })) },
                  { path: 'completed', handle: pageTitle('Completed tests'), lazy: () => clinicPages().then((m) => ({ Component: m.CompletedPage })) },
                  { path: 'shipments', handle: pageTitle('Shipments'), lazy: () => clinicPages().then((m) => ({ Component: m.ShipmentsPage })) },
                  { path: 'patient/:patientId', handle: pageTitle('Patient'), lazy: () => clinicPages().then((m) => ({ Component: m.PatientPage })) },
                  { path: 'users', handle: pageTitle('Account users'), lazy: () => clinicPages().then((m) => ({ Component: m.AccountUsersPage })) },
                  { path: 'api-clients', handle: pageTitle('API clients'), lazy: () => clinicPages().then((m) => ({ Component: m.ApiClientsPage })) },
                  { path: 'audit-trail', handle: pageTitle('Audit trail'), lazy: () => clinicPages().then((m) => ({ Component: m.ClinicAuditTrailPage })) },
                  { path: 'resources', handle: pageTitle('Resources'), lazy: () => clinicPages().then((m) => ({ Component: m.ResourcesPage })) },
                  { path: 'turnaround', handle: pageTitle('Turnaround'), lazy: () => clinicPages().then((m) => ({ Component: m.ClinicTurnaroundPage })) },
                  { path: 'research-projects', handle: pageTitle('Research projects'), lazy: () => clinicPages().then((m) => ({ Component: m.ResearchProjectsPage })) },
                  { path: 'patient-invitations', handle: pageTitle('Patient invitations'), lazy: () => clinicPages().then((m) => ({ Component: m.PatientInvitationsPage })) },
                  // {product}-through-mirakind (SPEC §2): one route per product a patient may order.
                  ...PATIENT_PRODUCTS.map((p) => ({
                    path: `${p}-through-mirakind`,
                    handle: pageTitle(`Order ${PATIENT_PRODUCT_NAMES[p]} through MiraKind`),
                    lazy: () => clinicPages().then((m) => ({ element: <m.MirakindOrderPage key={p} product={p} /> })),
                  })),
                ],
              },
              { path: ':accountId/*', element: <NotFoundPage />, handle: NOT_FOUND },
            ],
          },
          // The Patient Portal: patients order a test themselves (no sign-in).
          {
            path: '/patient-portal',
            children: [
              ...PATIENT_PRODUCTS.map((p) => ({
                path: `order/${p}/new`,
                handle: patientPageTitle('order', { product: PATIENT_PRODUCT_NAMES[p] }),
                lazy: () => patientPortalPages().then((m) => ({ element: <m.PatientOrderPage key={p} product={p} /> })),
              })),
              { path: 'order/complete', handle: patientPageTitle('orderComplete'), lazy: () => patientPortalPages().then((m) => ({ Component: m.OrderCompletePage })) },
              { path: '*', element: <NotFoundPage />, handle: NOT_FOUND },
            ],
          },
          // The patient's result (no sign-in: the emailed token plus the date of birth).
          { path: '/reports/patient_result/:barcode', handle: patientPageTitle('result'), lazy: () => import('./pages/reports').then((m) => ({ Component: m.PatientResultPage })) },
          // A question about the patient's sample (no sign-in: the emailed single-use link).
          { path: '/patient-portal/sample-follow-up/:followUpId/response', handle: patientPageTitle('followUp'), lazy: () => import('./pages/patient-portal/SampleFollowUpResponsePage').then((m) => ({ Component: m.SampleFollowUpResponsePage })) },
          { path: '*', element: <NotFoundPage />, handle: NOT_FOUND },
        ],
      },
    ],
  },
];
