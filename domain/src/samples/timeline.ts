/** One step of a sample's timeline, as the sample and patient pages answer it: its own file, so that patients/views and samples/views both use it without importing each other. */
import * as s from '../shared/shapes';

/** One step of a sample's timeline (a status change). */
export const TimelineEntry = s.object({
  id: s.integer,
  at: s.string,
  from: s.nullable(s.string),
  to: s.string,
  reason: s.nullable(s.string),
  actor: s.object({ kind: s.string, name: s.string }),
});
export type TimelineEntry = s.Infer<typeof TimelineEntry>;
