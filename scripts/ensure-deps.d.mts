/** The types of ensure-deps.mjs (plain Node, so that it runs before anything is installed). */
export interface SystemTool {
  command: string;
  debianPackage: string;
  neededFor: string;
}
export const SYSTEM_TOOLS: SystemTool[];
export function dependenciesState(root?: string): 'missing' | 'stale' | 'fresh';
export function missingSystemTools(pathEnv?: string): SystemTool[];
export function missingToolsMessage(missing: SystemTool[], who?: string): string;
