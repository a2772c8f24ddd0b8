/**
 * The second, independent HL7 library the HL7 tests check every message with: `hl7v2` (Panates)
 * with its HL7 v2.5.1 dictionary (`hl7v2-dictionary`). hl7v2 1.8.0 has no validate call: its
 * parse throws on a value of the wrong data type (a date, a number, a timestamp), and its dictionary
 * holds what the standard declares, which hl7v2Problems checks: the message structure (segment order,
 * required segments and groups, how often each may repeat), each segment's required fields, field
 * repetitions, field and component lengths, and the required components of composite values.
 * test/unit/hl7-validator.test.ts proves that the checker finds what it claims to find.
 */
import { expect } from 'chai';
import { HL7Message, type HL7DataTypeDefinition, type HL7Field, type HL7FieldDefinition, type HL7MessageSegmentsDefinition, type HL7Segment } from 'hl7v2';

type GroupDefinition = Record<string, HL7MessageSegmentsDefinition>;

/** Walks the structure's definition greedily; a group that matches nothing leaves no complaint. */
function matchGroup(defs: GroupDefinition, types: readonly string[], start: number, path: string): { at: number; problems: string[] } {
  let at = start;
  const problems: string[] = [];
  const entries = Object.entries(defs).sort(([, a], [, b]) => (a.idx ?? 0) - (b.idx ?? 0));
  for (const [name, def] of entries) {
    let count = 0;
    while (count < (def.max ?? Number.MAX_SAFE_INTEGER) && at < types.length) {
      if (def.segments) {
        const inner = matchGroup(def.segments, types, at, `${path}/${name}`);
        if (inner.at === at) break;
        problems.push(...inner.problems);
        at = inner.at;
      } else if (types[at] === name) {
        at++;
      } else {
        break;
      }
      count++;
    }
    if (count < (def.min ?? 0)) problems.push(`${path}/${name}: required ${def.segments ? 'group' : 'segment'} missing`);
  }
  return { at, problems };
}

function structureProblems(message: HL7Message): string[] {
  const msh = message.header;
  const structure = String(msh.field(9).getValue(3) || `${msh.field(9).getValue(1)}_${msh.field(9).getValue(2)}`);
  const definition = message.dictionary.messages[structure];
  if (!definition?.segments) return [`no message structure ${structure} in the ${message.version} dictionary`];
  const types = message.segments.map((s) => s.segmentType);
  const { at, problems } = matchGroup(definition.segments, types, 0, structure);
  if (at < types.length) problems.push(`${structure}: segment ${types[at]} (#${at + 1}) is not allowed there`);
  return problems;
}

const isEmptyText = (s: string) => s === '' || s === '""';

/** The required components of a non-empty value of a composite type, and their lengths. */
function componentProblems(where: string, repText: string, typeDef: HL7DataTypeDefinition | undefined, message: HL7Message): string[] {
  if (!typeDef?.fields) return [];
  const components = repText.split(message.componentSeparator);
  return Object.entries(typeDef.fields).flatMap(([pos, def]) => {
    const text = components[Number(pos) - 1] ?? '';
    const problems: string[] = [];
    if (def.opt === 'R' && isEmptyText(text)) problems.push(`${where}.${pos} (${def.desc}): required component empty`);
    if (def.len && text.length > def.len) problems.push(`${where}.${pos} (${def.desc}): ${text.length} characters, at most ${def.len}`);
    return problems;
  });
}

/**
 * Lengths the dictionary gives that the standard contradicts: 2.5.1 lists OBX-2 as 2 characters,
 * yet its own table 0125 holds three-letter value types (CWE, CNE, DTM) that OBX-2 must carry.
 */
const LENGTH_ERRATA = new Set(['OBX-2']);

/**
 * Fields whose length the HL7 v2.5.1 ELR guide (Release 1, PHLIP: MSH-21 PHLabReport-…) sets by
 * component, not as a whole: the order numbers and the specimen id carry their assigning lab (EI-2..4),
 * which the base standard's 22 (80 for SPM-2) characters cannot hold. Their components' lengths are
 * still checked.
 */
const ELR_LENGTH_BY_COMPONENT = new Set(['ORC-2', 'ORC-3', 'OBR-2', 'OBR-3', 'SPM-2']);
const isElr = (message: HL7Message) => String(message.header.field(21).getValue(1) ?? '').startsWith('PHLabReport-');

/** The data type of a field; OBX-5 (VARIES) has the one OBX-2 names. */
function valueType(segment: HL7Segment, pos: number, def: HL7FieldDefinition): string {
  return segment.segmentType === 'OBX' && pos === 5 ? String(segment.field(2).getValue() ?? def.type) : def.type;
}

function fieldProblems(segment: HL7Segment, pos: number, def: HL7FieldDefinition, message: HL7Message): string[] {
  const where = `${segment.segmentType}-${pos}`;
  // MSH-1 and MSH-2 are the separators themselves.
  if (segment.segmentType === 'MSH' && pos <= 2) return [];
  const f: HL7Field = segment.field(pos);
  const reps = f.isEmpty() ? [] : f.repetitions.map((r) => r.toHL7String());
  const problems: string[] = [];
  if (def.opt === 'R' && reps.length === 0) problems.push(`${where} (${def.desc}): required field empty`);
  if (typeof def.rep === 'number' && reps.length > def.rep) problems.push(`${where}: ${reps.length} repetitions, at most ${def.rep}`);
  const lengthByComponent = ELR_LENGTH_BY_COMPONENT.has(where) && isElr(message);
  for (const text of reps) {
    if (def.len && text.length > def.len && !LENGTH_ERRATA.has(where) && !lengthByComponent) problems.push(`${where} (${def.desc}): ${text.length} characters, at most ${def.len}`);
    problems.push(...componentProblems(where, text, message.dictionary.types[valueType(segment, pos, def)], message));
  }
  return problems;
}

function segmentProblems(message: HL7Message): string[] {
  return message.segments.flatMap((segment) => {
    const definition = message.dictionary.segments[segment.segmentType];
    if (!definition) return [`${segment.segmentType}: not a segment of ${message.version}`];
    const declared = Object.entries(definition.fields).flatMap(([pos, def]) => fieldProblems(segment, Number(pos), def, message));
    const extra = segment.fields.length > Object.keys(definition.fields).length ? [`${segment.segmentType}: more fields than the standard defines`] : [];
    return [...declared, ...extra];
  });
}

/** hl7v2's parse, strict: a value of the wrong data type throws (not strict, it is kept as text). */
const parseStrictly = (text: string) => HL7Message.parse(text, { strict: true });

/** What hl7v2 and its 2.5.1 dictionary find wrong with a message (parse errors are thrown). */
export function hl7v2Problems(text: string): string[] {
  const message = parseStrictly(text);
  const version = message.version === '2.5.1' ? [] : [`version ${message.version}, not 2.5.1`];
  return [...version, ...structureProblems(message), ...segmentProblems(message)];
}

/** Parses with hl7v2 and expects no problem; answers the parsed message for further reading. */
export function expectValidHl7(text: string): HL7Message {
  const parsed = parseStrictly(text);
  expect(hl7v2Problems(text), 'hl7v2 finds problems').to.deep.equal([]);
  return parsed;
}
