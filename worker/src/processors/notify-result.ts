import type { Processor } from './types';

export const notifyResult: Processor<'notify-result'> = async () => {
  throw new Error('notify-result is being written');
};
