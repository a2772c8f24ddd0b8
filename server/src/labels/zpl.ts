/**
 * Labels as ZPL II for Zebra thermal printers: one ^XA…^XZ per label, 2 × 1 in at 203 dpi
 * (406 × 203 dots), UTF-8 text (^CI28), every field's data hex-escaped (^FH) so a ^ or ~ in a
 * plate's name cannot end a field. The printer draws the barcode itself: ^BC (Code 128, automatic
 * mode) for a code that fits across the label, ^BX (DataMatrix) otherwise.
 */
import { THERMAL_LABEL, type LabelContent } from '@platform/domain';
import { encodeBarcode } from './barcode';

const WIDTH = THERMAL_LABEL.width * THERMAL_LABEL.dpi;
const HEIGHT = THERMAL_LABEL.height * THERMAL_LABEL.dpi;
const MARGIN = 16;

/** A field's data with ^FH_ escapes: _ ^ ~ (and control characters) as _XX. */
export function zplField(text: string): string {
  return `^FH_^FD${text.replace(/[_^~\x00-\x1f\\]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}^FS`;
}

async function zplLabel(label: LabelContent): Promise<string> {
  const out = ['^XA', '^CI28', `^PW${WIDTH}`, `^LL${HEIGHT}`, '^LH0,0'];
  const code = await encodeBarcode('code128', label.code);
  const modules = code.symbology === 'code128' ? code.modules : 0;
  const moduleDots = [3, 2, 1].find((d) => modules * d <= WIDTH - 2 * MARGIN);
  const line = (i: number, top: number, left: number) =>
    `^FO${left},${top + i * 24}^A0N,${i === 0 ? 22 : 20},${i === 0 ? 22 : 20}^FB${WIDTH - left - MARGIN},1,0,L${zplField(label.lines[i])}`;
  if (label.symbology === 'code128' && moduleDots && moduleDots >= 2) {
    const left = Math.round((WIDTH - modules * moduleDots) / 2);
    out.push(`^FO${left},12^BY${moduleDots},3,70^BCN,70,N,N,N,A${zplField(label.code)}`);
    out.push(`^FO${MARGIN},88^A0N,22,22^FB${WIDTH - 2 * MARGIN},1,0,C${zplField(label.code)}`);
    label.lines.forEach((_, i) => out.push(line(i, 114, MARGIN)));
  } else {
    out.push(`^FO${MARGIN},16^BXN,5,200${zplField(label.code)}`);
    const left = MARGIN + 180;
    out.push(`^FO${left},20^A0N,22,22^FB${WIDTH - left - MARGIN},1,0,L${zplField(label.code)}`);
    label.lines.forEach((_, i) => out.push(line(i, 56, left)));
  }
  out.push('^XZ');
  return out.join('\n');
}

/** The labels as one ZPL file (a printer takes them one after the other). */
export async function renderLabelsZpl(labels: LabelContent[]): Promise<string> {
  const parts: string[] = [];
  for (const label of labels) parts.push(await zplLabel(label));
  return `${parts.join('\n')}\n`;
}
