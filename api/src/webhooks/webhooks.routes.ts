import { Router } from 'express';
import type { AppContext } from '../context';

export function webhooksRouter(_ctx: AppContext): Router {
  return Router();
}
