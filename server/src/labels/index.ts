export * from './labels';
export { encodeBarcode, drawCode128, drawDataMatrix, modulesWide, type EncodedBarcode } from './barcode';
export { renderLabelsPdf } from './label-pdf';
export { renderLabelsZpl, zplField } from './zpl';
