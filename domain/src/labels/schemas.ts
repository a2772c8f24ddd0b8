/** Request schemas of label downloads (kit and sample labels, plates, shipments). */
import Joi from 'joi';
import { KIT_BARCODE_PATTERN, KIT_BARCODE_RULE } from '../samples/identifiers';
import { LABEL_LAYOUTS, LABEL_START_RULE, LABELS_MAX, LABELS_PER_SHEET, LabelLayout, SAMPLE_LABEL_KINDS, type SampleLabelKind } from './labels';

const STRICT_KEYS = { allowUnknown: false } as const;

const layout = Joi.string().valid(...LABEL_LAYOUTS).default(LabelLayout.Sheet).label('layout')
  .messages({ 'any.only': `{#label} must be one of: ${LABEL_LAYOUTS.join(', ')}` });
const start = Joi.number().integer().min(1).max(LABELS_PER_SHEET).label('start')
  .messages({ 'number.base': LABEL_START_RULE, 'number.integer': LABEL_START_RULE, 'number.min': LABEL_START_RULE, 'number.max': LABEL_START_RULE });
const barcodes = Joi.array()
  .items(Joi.string().pattern(KIT_BARCODE_PATTERN).label('Barcode').messages({ 'string.pattern.base': KIT_BARCODE_RULE }))
  .single()
  .min(1)
  .max(LABELS_MAX)
  .label('barcodes')
  .messages({ 'array.max': `{#label} may name at most ${LABELS_MAX} kits`, 'array.min': 'Name at least one kit' })
  .required();
const kind = Joi.string().valid(...SAMPLE_LABEL_KINDS).label('kind')
  .messages({ 'any.only': `{#label} must be one of: ${SAMPLE_LABEL_KINDS.join(', ')}` });

/** A PDF of labels: the paper, and on a sheet the first free label (1-30; a thermal roll has none). */
export interface LabelPdfQuery { layout: LabelLayout; start?: number }
/** GET …/label/pdf (a plate, a shipment) */
export const labelPdfQuery = /*#__PURE__*/ Joi.object<LabelPdfQuery>({ layout, start }).options(STRICT_KEYS).label('Query');

/** Kit and sample labels by kit barcode (intake); `kind` omitted: a received sample's label, or a kit's before receipt. */
export interface SampleLabelsQuery { barcodes: string[]; kind?: SampleLabelKind }
export interface SampleLabelsPdfQuery extends SampleLabelsQuery, LabelPdfQuery {}
/** GET lab-toolbox/labels/samples/pdf */
export const sampleLabelsPdfQuery = /*#__PURE__*/ Joi.object<SampleLabelsPdfQuery>({ barcodes, kind, layout, start }).options(STRICT_KEYS).label('Query');
/** GET lab-toolbox/labels/samples/zpl */
export const sampleLabelsZplQuery = /*#__PURE__*/ Joi.object<SampleLabelsQuery>({ barcodes, kind }).options(STRICT_KEYS).label('Query');
