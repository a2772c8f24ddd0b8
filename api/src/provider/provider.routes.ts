import { Router } from 'express';
import type { AppContext } from '../context';

export function providerRouter(_ctx: AppContext): Router {
  return Router();
}
