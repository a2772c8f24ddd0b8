import { Router } from 'express';
import type { AppContext } from '../context';

export function reportsRouter(_ctx: AppContext): Router {
  return Router();
}
