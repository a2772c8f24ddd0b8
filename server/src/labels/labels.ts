/**
 * Printing labels (issue 30, item 1): the use cases behind every "Print label" of the product.
 * Each reads what its label shows (domain/src/labels decides what that is), checks it against the
 * caller (lab users for kits, samples and plates; a clinic only for its own account's shipment:
 * another account's is "not found", as if it did not exist), and answers a PDF (sheet or thermal)
 * or ZPL. Rendered here, on request, in the process that asks: a label is needed at the bench the
 * moment a kit is scanned, and one page takes a few milliseconds.
 *
 * A label that carries patient data (a received sample's: initials and date of birth) is a read of
 * that data: each sample printed gets an audit row (sample.label_printed), in the same transaction
 * as the read.
 */
import { QueryTypes } from 'sequelize';
import {
  kitLabelContent,
  LabelKind,
  labelFileName,
  LabelLayout,
  pcrPlateLabelContent,
  sampleLabelContent,
  shipmentLabelContent,
  storagePlateLabelContent,
  ItemKind,
  type LabelContent,
  type SampleLabelsQuery,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type AccountCaller, type UserCaller } from '../audit';
import { badRequest, conflict, notFound } from '../errors';
import { loadStoragePlateView } from '../samples/storage-plates';
import { loadPlateView } from '../pcr/pcr';
import { externalOrderIdOf } from '../shipments/shipments';
import { renderLabelsPdf } from './label-pdf';
import { renderLabelsZpl } from './zpl';

type Ctx = Pick<ServerContext, 'db' | 'config'>;

/** What a label download is: a PDF on one of the two papers, or ZPL for a Zebra printer. */
export type LabelOutput = { format: 'pdf'; layout: LabelLayout; start?: number } | { format: 'zpl' };

/** A file to answer: its name, type and content. */
export interface LabelFile { fileName: string; contentType: string; content: Buffer }

async function render(labels: LabelContent[], output: LabelOutput, what: string): Promise<LabelFile> {
  if (output.format === 'zpl') {
    return { fileName: labelFileName(what, 'zpl'), contentType: 'text/plain; charset=utf-8', content: Buffer.from(await renderLabelsZpl(labels), 'utf8') };
  }
  if (output.layout !== LabelLayout.Sheet && output.start !== undefined) {
    const message = 'start applies to a sheet of labels only: a thermal label has no position';
    throw badRequest(message, [{ field: 'start', message }]);
  }
  return { fileName: labelFileName(what, 'pdf'), contentType: 'application/pdf', content: await renderLabelsPdf(labels, output.layout, output.start ?? 1, `Labels: ${what}`) };
}

interface SampleRow {
  id: string;
  barcode: string;
  status: string;
  sample_type: string | null;
  received_at: Date | null;
  account: string | null;
  first_name: string | null;
  last_name: string | null;
  study_id: string | null;
  date_of_birth: string | null;
  tests: string[] | null;
}

/**
 * Kit and sample labels by kit barcode, in the order asked (GET lab-toolbox/labels/samples/…), for
 * a lab user. `kind` omitted: each sample as it stands (received: its sample label; not yet: its
 * kit label). An unknown barcode is refused naming it; a sample label of a kit never received too.
 */
export async function sampleLabels(ctx: Ctx, caller: UserCaller, query: SampleLabelsQuery, output: LabelOutput): Promise<LabelFile> {
  const unique = [...new Set(query.barcodes)];
  return ctx.db.sequelize.transaction(async (transaction) => {
    const rows = await ctx.db.sequelize.query<SampleRow>(
      `SELECT s.id, s.barcode, s.status, s.sample_type, s.received_at, a.name AS account,
              p.first_name, p.last_name, p.study_id, p.date_of_birth::text AS date_of_birth,
              (SELECT array_agg(t.name ORDER BY t.id) FROM tests t WHERE t.sample_id = s.id) AS tests
         FROM samples s
         JOIN patients p ON p.id = s.patient_id
         LEFT JOIN accounts a ON a.id = s.account_id
        WHERE s.barcode IN (:barcodes)`,
      { replacements: { barcodes: unique }, type: QueryTypes.SELECT, transaction },
    );
    const byBarcode = new Map(rows.map((r) => [r.barcode, r]));
    const missing = unique.filter((b) => !byBarcode.has(b));
    if (missing.length) {
      const message = `No sample has barcode ${missing.join(', ')}`;
      throw notFound(message);
    }
    const labels: LabelContent[] = [];
    const printedSamples = new Set<string>();
    for (const barcode of query.barcodes) {
      const r = byBarcode.get(barcode)!;
      const kind = query.kind ?? (r.received_at ? LabelKind.Sample : LabelKind.Kit);
      if (kind === LabelKind.Sample) {
        if (!r.received_at) {
          const message = `Sample ${barcode} has not been received (it is ${r.status}): print its kit label`;
          throw conflict(message, [{ field: 'barcodes', message }]);
        }
        labels.push(sampleLabelContent({
          barcode,
          patient: { firstName: r.first_name, lastName: r.last_name, studyId: r.study_id, dateOfBirth: r.date_of_birth },
          tests: r.tests ?? [],
          receivedAt: r.received_at,
        }, ctx.config.labTimeZone));
        printedSamples.add(r.id);
      } else {
        labels.push(kitLabelContent({ barcode, tests: r.tests ?? [], sampleType: r.sample_type, account: r.account }));
      }
    }
    // Patient-bearing labels are reads of patient data: one audit row per sample, with the read.
    for (const id of printedSamples) {
      await recordAudit(ctx.db, {
        ...auditActor(caller),
        action: 'sample.label_printed',
        entityKind: 'sample',
        entityId: id,
        details: { format: output.format, ...(output.format === 'pdf' ? { layout: output.layout } : {}) },
      }, transaction);
    }
    const what = query.barcodes.length === 1 ? query.barcodes[0] : `${query.barcodes.length}-samples`;
    return render(labels, output, what);
  });
}

/** A storage plate's label (its name as the barcode), for a lab user. */
export async function storagePlateLabel(ctx: Ctx, _caller: UserCaller, plateId: number, output: LabelOutput): Promise<LabelFile> {
  const plate = await loadStoragePlateView(ctx, plateId);
  if (!plate) throw notFound('Plate not found');
  return render([storagePlateLabelContent({ name: plate.name, samples: plate.sampleCount, createdAt: plate.createdAt }, ctx.config.labTimeZone)], output, plate.name);
}

/** A PCR plate's label (its name as the barcode), for a lab user. */
export async function pcrPlateLabel(ctx: Ctx, _caller: UserCaller, plateId: number, output: LabelOutput): Promise<LabelFile> {
  const plate = await loadPlateView(ctx, plateId);
  if (!plate) throw notFound('Plate not found');
  const samples = plate.wells.filter((w) => w.kind === 'sample').length;
  return render([pcrPlateLabelContent({ name: plate.name, samples, controls: plate.wells.length - samples, createdAt: plate.createdAt }, ctx.config.labTimeZone)], output, plate.name);
}

/** A shipment's label, for a provider of the shipment's own account (another account's is not found). */
export async function shipmentLabel(ctx: Ctx, caller: AccountCaller, shipmentId: number, output: LabelOutput): Promise<LabelFile> {
  const [row] = await ctx.db.sequelize.query<{ id: string; external_order_id: string | null; tracking_number: string | null; created_at: Date; account: string; samples: string }>(
    `SELECT sh.id, sh.external_order_id, sh.tracking_number, sh.created_at, a.name AS account,
            (SELECT count(*) FROM shipment_items si WHERE si.shipment_id = sh.id AND si.kind = :test) AS samples
       FROM shipments sh JOIN accounts a ON a.id = sh.account_id
      WHERE sh.id = :shipmentId AND sh.account_id = :accountId`,
    { replacements: { shipmentId, accountId: caller.accountId, test: ItemKind.Test }, type: QueryTypes.SELECT },
  );
  if (!row) throw notFound('Shipment not found');
  const code = row.external_order_id ?? externalOrderIdOf(Number(row.id));
  const label = shipmentLabelContent({ code, account: row.account, samples: Number(row.samples), createdAt: row.created_at, trackingNumber: row.tracking_number }, ctx.config.labTimeZone);
  return render([label], output, code);
}
