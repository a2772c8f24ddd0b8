import { Router } from 'express';
import type { AppContext } from '../context';

/** Result files are uploaded here as the raw request body (app.ts parses it raw, up to IMPORT_MAX_BYTES). */
export const LAB_UPLOAD_PATH = '/api/lab-toolbox/import-files';

export function labRouter(_ctx: AppContext): Router {
  return Router();
}
