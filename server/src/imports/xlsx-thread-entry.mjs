// The sheet thread's entry: a worker thread does not inherit the TypeScript loader its process was
// started with (Node 20), so it registers tsx itself before loading the thread's TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./xlsx-thread.ts');
