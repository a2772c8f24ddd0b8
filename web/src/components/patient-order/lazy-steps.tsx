import { useEffect, useState } from 'react';

type LaterSteps = typeof import('./later-steps');

let loaded: LaterSteps | null = null;

/**
 * The steps after eligibility (their selects, popovers and the card form are about as much code as
 * the rest of the page) load once they are `wanted`: PatientOrderFlow wants them as soon as the
 * patient starts on the first step (a tap or a focus in it), so they are there by the time Next is
 * pressed, and their download never competes with the first step's paint on a phone's network
 * (issue 14). Until they are there (a resumed order, a very slow network) the caller shows a loader.
 */
export function useLaterSteps(wanted: boolean): LaterSteps | null {
  const [steps, setSteps] = useState(loaded);
  useEffect(() => {
    if (steps || !wanted) return;
    let current = true;
    void import('./later-steps').then((module) => {
      loaded = module;
      if (current) setSteps(module);
    });
    return () => {
      current = false;
    };
  }, [steps, wanted]);
  return steps;
}
