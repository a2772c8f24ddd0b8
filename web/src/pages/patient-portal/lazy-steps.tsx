import { useEffect, useState } from 'react';

type LaterSteps = typeof import('./later-steps');

let loaded: LaterSteps | null = null;

/**
 * The steps after eligibility (their selects, popovers and the card form are about as much code as
 * the rest of the page) load after the first step has painted: the phone shows the questions
 * sooner (issue 14). PatientOrderFlow asks for them as it mounts, so they are there by the time
 * the patient presses Next; until then (a resumed order, a very slow network) the caller shows a
 * loader.
 */
export function useLaterSteps(): LaterSteps | null {
  const [steps, setSteps] = useState(loaded);
  useEffect(() => {
    if (steps) return;
    let current = true;
    void import('./later-steps').then((module) => {
      loaded = module;
      if (current) setSteps(module);
    });
    return () => {
      current = false;
    };
  }, [steps]);
  return steps;
}
