/**
 * The nesting depth of a JSON text, read from its bytes before it is parsed: a body nested thousands
 * of levels deep costs every layer after the parser (validation, sanitising) time in proportion to
 * its depth, so it is refused while it is read (body-parser's `verify`), with what went wrong.
 */
import { JSON_MAX_DEPTH } from '@platform/domain';

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** Whether `json` opens more than `limit` objects or arrays inside one another (brackets within strings are text). */
export function nestedDeeperThan(json: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** body-parser's `verify`: throws the error the one error handler answers as a 400 naming the limit. */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (nestedDeeperThan(body, JSON_MAX_DEPTH)) {
    throw Object.assign(new Error('The request body is nested too deeply'), { status: 400, type: 'entity.too.deep' });
  }
}
