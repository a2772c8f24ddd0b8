import type { ReactNode } from 'react';
import { Alert, Button, Card, Center, Loader, Text } from '@mantine/core';

/**
 * A list's states before its rows: loading, could not load (the shell's error modal has already
 * said why: here only what is missing and a way to try again), empty, else the list itself.
 */
export function QueryState({ what, loading, failed, empty, emptyText, onRetry, children }: {
  /** What the list shows, for "Loading …" and "The … could not be loaded". */
  what: string;
  loading: boolean;
  failed: boolean;
  empty: boolean;
  emptyText: ReactNode;
  onRetry?: () => void;
  children: ReactNode;
}) {
  if (loading) {
    return (
      <Center py="lg" role="status" aria-label={`Loading ${what}`}>
        <Loader />
      </Center>
    );
  }
  if (failed) {
    return (
      <Alert color="red" variant="light" title={`The ${what} could not be loaded`}>
        {onRetry && (
          <Button variant="default" size="xs" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Alert>
    );
  }
  if (empty) {
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed">{emptyText}</Text>
      </Card>
    );
  }
  return <>{children}</>;
}

/** QueryState's flags from an SWR answer: loading and failed only while there is nothing to show. */
export function queryFlags<T>(q: { data?: T; error?: unknown; isLoading: boolean }, isEmpty: (data: T) => boolean) {
  return {
    loading: q.isLoading && q.data === undefined,
    failed: Boolean(q.error) && q.data === undefined,
    empty: q.data !== undefined && isEmpty(q.data),
  };
}
