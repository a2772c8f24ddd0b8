/**
 * Building HL7 v2 segments from values, on @medplum/core's model (Hl7Segment, Hl7Field and its
 * setComponent). The library joins what it is given as it is: it does not escape, so every value
 * passes through escapeHl7 here (the separators of the message's Hl7Context become \F\ \S\ \T\ \R\
 * \E\), and nothing in this folder joins pipes and carets by hand.
 */
import { formatHl7DateTime, Hl7Context, Hl7Field, Hl7Segment } from '@medplum/core';

/** The encoding characters every message of ours uses (the standard's defaults: |^~\&). */
export const HL7_CONTEXT = new Hl7Context();

/** A component: its text, or its subcomponents (an HD inside a CX); null / undefined for empty. */
export type Component = string | null | undefined | readonly (string | null | undefined)[];

const hex = (ch: string) => ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');

/** The escape sequence of one character, or null when it stands as it is. */
function escapeSequence(ch: string, ctx: Hl7Context): string | null {
  switch (ch) {
    case ctx.escapeCharacter: return 'E';
    case ctx.fieldSeparator: return 'F';
    case ctx.componentSeparator: return 'S';
    case ctx.subcomponentSeparator: return 'T';
    case ctx.repetitionSeparator: return 'R';
    // A CR or LF would end the segment: sent as hexadecimal data.
    case '\r': case '\n': return `X${hex(ch)}`;
    default: return null;
  }
}

/** A value as HL7 text: each separator and the escape character replaced by its escape sequence. */
export function escapeHl7(text: string, ctx: Hl7Context = HL7_CONTEXT): string {
  let out = '';
  for (const ch of text) {
    const seq = escapeSequence(ch, ctx);
    out += seq === null ? ch : `${ctx.escapeCharacter}${seq}${ctx.escapeCharacter}`;
  }
  return out;
}

/** The value an escaped HL7 text stands for (what a received field means). */
export function unescapeHl7(text: string, ctx: Hl7Context = HL7_CONTEXT): string {
  const e = ctx.escapeCharacter;
  const pattern = new RegExp(`${regexEscape(e)}([^${regexEscape(e)}]*)${regexEscape(e)}`, 'g');
  return text.replace(pattern, (whole, seq: string) => {
    switch (seq) {
      case 'E': return e;
      case 'F': return ctx.fieldSeparator;
      case 'S': return ctx.componentSeparator;
      case 'T': return ctx.subcomponentSeparator;
      case 'R': return ctx.repetitionSeparator;
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(seq)) return Buffer.from(seq.slice(1), 'hex').toString('latin1');
        return whole; // formatting (\.br\ ...) and unknown sequences stay as they are
    }
  });
}

const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function setComponent(f: Hl7Field, position: number, value: Component, repetition: number): void {
  if (value == null) return;
  if (typeof value === 'string') {
    if (value !== '') f.setComponent(position, escapeHl7(value, f.context), undefined, repetition);
    return;
  }
  // Hl7Field's subcomponent index is 0-based.
  value.forEach((sub, i) => {
    if (sub != null && sub !== '') f.setComponent(position, escapeHl7(sub, f.context), i, repetition);
  });
}

/** One field (one repetition) from its components, in order from component 1; each value escaped. */
export function field(...components: Component[]): Hl7Field {
  const f = new Hl7Field([[]], HL7_CONTEXT);
  components.forEach((c, i) => setComponent(f, i + 1, c, 0));
  return f;
}

/** A repeating field: the repetitions of the fields given (an empty field when there are none). */
export function repeated(fields: readonly Hl7Field[]): Hl7Field {
  return fields.length ? new Hl7Field(fields.flatMap((f) => f.components), HL7_CONTEXT) : field();
}

/** A field set to exactly this text: for values that are HL7 syntax themselves (never user data). */
const literal = (text: string) => new Hl7Field([[text]], HL7_CONTEXT);

/** A segment from its fields, position 1 first; undefined for an empty field, trailing ones left off. */
export function segment(name: string, fields: readonly (Hl7Field | undefined)[]): Hl7Segment {
  const last = fields.reduce((at, f, i) => (f && f.toString() !== '' ? i : at), -1);
  const used = fields.slice(0, last + 1).map((f) => f ?? field());
  return new Hl7Segment([literal(name), ...used], HL7_CONTEXT);
}

/**
 * A header segment (MSH, or a batch file's FHS and BHS) from its third field on: the first two are
 * the context's separators (Hl7Segment reads MSH-n from fields[n-1]).
 */
export function headerSegment(name: 'MSH' | 'FHS' | 'BHS', fieldsFrom3: readonly (Hl7Field | undefined)[]): Hl7Segment {
  const header = segment(name, fieldsFrom3);
  return new Hl7Segment([header.fields[0], literal(HL7_CONTEXT.getMsh2()), ...header.fields.slice(1)], HL7_CONTEXT);
}

export const mshSegment = (fieldsFrom3: readonly (Hl7Field | undefined)[]): Hl7Segment => headerSegment('MSH', fieldsFrom3);

/**
 * An instant as HL7 TS in UTC with its offset (YYYYMMDDHHMMSS+0000), to the second:
 * formatHl7DateTime writes milliseconds unpadded (5 ms as '.5'), so they are dropped first.
 */
export function hl7Timestamp(at: Date | string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw new RangeError('not a date and time');
  date.setUTCMilliseconds(0);
  return `${formatHl7DateTime(date)}+0000`;
}

/** A calendar date (YYYY-MM-DD, as the database gives a DATE) as HL7 DT (YYYYMMDD). */
export function hl7Date(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!m) throw new RangeError('not a calendar date (YYYY-MM-DD)');
  return `${m[1]}${m[2]}${m[3]}`;
}

/** The text of a component of a received field, unescaped ('' when absent). */
export function componentText(s: Hl7Segment | undefined, fieldIndex: number, component = 1): string {
  return s ? unescapeHl7(s.getComponent(fieldIndex, component), s.context) : '';
}
