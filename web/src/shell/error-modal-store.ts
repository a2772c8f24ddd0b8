/**
 * The error modal's state, outside React so that the fetcher's query handler can open it. The
 * layouts render it (each at its own position); see components/ErrorModalHost.tsx.
 */
import { useSyncExternalStore } from 'react';

export interface ErrorModalContent {
  /** A friendly heading, e.g. 'Error retrieving accounts' (SPEC §8). */
  heading: string;
  /** e.g. 'Request failed with status code 500'. */
  message: string;
}

let current: ErrorModalContent | null = null;
const listeners = new Set<() => void>();

function publish(next: ErrorModalContent | null): void {
  current = next;
  for (const listener of listeners) listener();
}

export function showErrorModal(content: ErrorModalContent): void {
  publish(content);
}

export function closeErrorModal(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useErrorModalContent(): ErrorModalContent | null {
  return useSyncExternalStore(subscribe, () => current);
}
