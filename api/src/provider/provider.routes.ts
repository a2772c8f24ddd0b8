/**
 * The Clinical Portal's API, mounted at /api. Every clinic route declares its guards itself
 * (provider user, member of the URL's account with clinic access), so this router never stands
 * in the way of another area's paths.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  PatientSearchAnswer, PatientExistsAnswer, PatientSummary, PatientDetail, PhysicianOption, CatalogueOption, CreatedOrder, ResultListRow, SampleRow, ShipmentView, shapes,
  clinicOrderBody, createShipmentBody, labelPdfQuery, newPatientBody, patientExistsBody, patientSearchBody, requisitionDownloadQuery, resultListQuery,
  samplesQuery, shipmentsQuery, purchaseLabelBody, ShipmentRatesAnswer, type PurchaseLabelBody, type AccountSummary, type ClinicOrderBody, type CreateShipmentBody, type NewPatientBody, type PatientExistsBody,
  type PatientSearchBody, type RequisitionDownloadQuery, type ResultListQuery, type SamplesQuery, type ShipmentsQuery,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { accountsOf } from '@platform/server/access/sign-in';
import { validateBody, validateQuery } from '../http/validate';
import { accountCallerOf, callerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { pathId } from '../http/path-id';
import { sendAttachment } from '../http/send-file';
import { answers, answersFile, answersPage } from '../http/answers';
import { answersLabelPdf, answersLabelZpl, pdfOutput, sendLabelFile, ZPL_OUTPUT } from '../http/label-file';
import {
  clinicCatalogue, createClinicOrder, createPatient, createShipment, downloadRequisitionForm, getPatientDetail, listPhysicians, listResults, listSamples, listShipments, notFound, patientExists, physiciansForCaller, searchPatients, shipmentLabel,
  carrierLabelFile, purchaseShipmentLabel, quoteShipmentRates,
} from '@platform/server';


const SAMPLE_BARCODE_PARAM = /^[A-Za-z0-9_.-]{1,64}$/;

export function providerRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const path = (p: string) => `${CLINIC_API_BASE}/${p}`;
  const query = <T>(res: Response) => res.locals.query as T;
  const accountOf = (res: Response) => res.locals.account as AccountSummary;

  // Patients. Search and exists-check only read, but are POSTs with a JSON body: the name or date
  // of birth they carry must not end up in a URL (proxy access logs, browser history). A GET on
  // either path falls through to patient/:patientId below, and is not found.
  router.post(path('patient/search'), ...clinic, validateBody(patientSearchBody), answers(200, PatientSearchAnswer), async (req: Request, res: Response) => {
    const page = await searchPatients(ctx, accountCallerOf(req, res), req.body as PatientSearchBody);
    // { rows, total } in the body as well as x-total-count: the picker shows the total, and the SPA's POST helper reads no headers.
    res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').json(page);
  });

  router.post(path('patient/exists'), ...clinic, validateBody(patientExistsBody), answers(200, PatientExistsAnswer), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await patientExists(ctx, accountCallerOf(req, res), req.body as PatientExistsBody));
  });

  router.post(path('patient'), ...clinic, validateBody(newPatientBody), answers(201, PatientSummary), async (req, res) => {
    res.status(201).json(await createPatient(ctx, accountCallerOf(req, res), req.body as NewPatientBody));
  });

  router.get(path('patient/:patientId'), ...clinic, answers(200, PatientDetail), async (req, res) => {
    const patientId = pathId(req.params.patientId, 'Patient');
    res.set('Cache-Control', 'no-store').json(await getPatientDetail(ctx, accountCallerOf(req, res), patientId));
  });

  // Ordering
  router.get(path('physicians'), ...clinic, answers(200, shapes.array(PhysicianOption)), async (req, res) => {
    res.json(await listPhysicians(ctx, accountCallerOf(req, res)));
  });

  router.get(path('get-physicians-by-contact'), ...clinic, answers(200, shapes.array(PhysicianOption)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await physiciansForCaller(ctx, accountCallerOf(req, res), accountOf(res).role));
  });

  router.get(path('tests/catalogue'), ...clinic, answers(200, shapes.array(CatalogueOption)), (_req, res) => {
    res.json(clinicCatalogue());
  });

  router.post(path('order'), ...clinic, validateBody(clinicOrderBody), answers(201, CreatedOrder), async (req, res) => {
    res.status(201).json(await createClinicOrder(ctx, accountCallerOf(req, res), accountOf(res).role, req.body as ClinicOrderBody));
  });

  // Result lists
  router.get(path('tests'), ...clinic, validateQuery(resultListQuery), answersPage(ResultListRow), async (req, res) => {
    sendPage(res, await listResults(ctx, accountCallerOf(req, res), query<ResultListQuery>(res)));
  });

  // Samples and shipments
  router.get(path('samples'), ...clinic, validateQuery(samplesQuery), answersPage(SampleRow), async (req, res) => {
    sendPage(res, await listSamples(ctx, accountCallerOf(req, res), query<SamplesQuery>(res)));
  });

  router.get(path('shipments'), ...clinic, validateQuery(shipmentsQuery), answersPage(ShipmentView), async (req, res) => {
    sendPage(res, await listShipments(ctx, accountCallerOf(req, res), query<ShipmentsQuery>(res)));
  });

  router.post(path('shipments/create'), ...clinic, validateBody(createShipmentBody), answers(201, ShipmentView), async (req, res) => {
    res.status(201).json(await createShipment(ctx, accountCallerOf(req, res), (req.body as CreateShipmentBody).sampleIds));
  });

  // A shipment's label (the box's), for a provider of the shipment's own account.
  router.get(path('shipments/:shipmentId/label/pdf'), ...clinic, validateQuery(labelPdfQuery), answersLabelPdf, async (req, res) => {
    sendLabelFile(res, await shipmentLabel(ctx, accountCallerOf(req, res), pathId(req.params.shipmentId, 'Shipment'), pdfOutput(res)));
  });
  router.get(path('shipments/:shipmentId/label/zpl'), ...clinic, answersLabelZpl, async (req, res) => {
    sendLabelFile(res, await shipmentLabel(ctx, accountCallerOf(req, res), pathId(req.params.shipmentId, 'Shipment'), ZPL_OUTPUT));
  });

  // The carrier's label: the shipping service's rates for the shipment, buying one, the label's PDF.
  router.post(path('shipments/:shipmentId/rates'), ...clinic, answers(200, ShipmentRatesAnswer), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await quoteShipmentRates(ctx, accountCallerOf(req, res), pathId(req.params.shipmentId, 'Shipment')));
  });
  router.post(path('shipments/:shipmentId/purchase-label'), ...clinic, validateBody(purchaseLabelBody), answers(200, ShipmentView), async (req, res) => {
    const shipmentId = pathId(req.params.shipmentId, 'Shipment');
    res.json(await purchaseShipmentLabel(ctx, accountCallerOf(req, res), shipmentId, (req.body as PurchaseLabelBody).rateId));
  });
  router.get(path('shipments/:shipmentId/carrier-label'), ...clinic, answersFile('application/pdf'), async (req, res) => {
    const file = await carrierLabelFile(ctx, accountCallerOf(req, res), pathId(req.params.shipmentId, 'Shipment'));
    sendAttachment(res, file, 'application/pdf');
  });

  // The requisition form of a sample, for a provider of its account.
  router.get('/sample/:barcode/pdf_order', requireUser('provider'), validateQuery(requisitionDownloadQuery), answersFile('application/pdf'), async (req, res) => {
    const barcode = String(req.params.barcode);
    if (!SAMPLE_BARCODE_PARAM.test(barcode)) throw notFound('Sample not found');
    const { dob } = query<RequisitionDownloadQuery>(res);
    const file = await downloadRequisitionForm(ctx, await accountsOf(ctx, req.user!), barcode, dob, callerOf(req, res));
    sendAttachment(res, file, 'application/pdf');
  });

  return router;
}
