/**
 * Where the keyboard focus goes when the control that had it goes away: a message's close button
 * takes itself with the message, a dialog that closes by unmounting forgets its opener, and one that
 * stays mounted gives the focus back only to what had it when it opened (nothing, when that was a
 * busy button: a browser drops the focus from a disabled control). Left alone
 * the focus falls to <body>: Tab starts again from the top of the page and a screen reader says
 * nothing (WCAG 2.4.3). `useFocusBack` sends it back to what led there (the button pressed) while
 * that is still on the page and usable, else to the dialog it was in while that is open (a drawer's
 * panel), else to the page's heading (PageHeader's h1 takes a programmatic focus), else to the page's
 * content.
 */
import { useEffect, useRef, useState } from 'react';
import { MAIN_CONTENT_ID } from './RouteAnnouncer';

const usable = (el: HTMLElement | null): el is HTMLElement =>
  el !== null && el.isConnected && el !== document.body && !el.matches(':disabled, [aria-disabled="true"], [data-disabled]');

/** The page's heading (or, without one, its content) takes the focus. */
export function focusPageHeading(): void {
  const main = document.getElementById(MAIN_CONTENT_ID);
  const heading = (main ?? document).querySelector<HTMLElement>('h1[tabindex="-1"]');
  (heading ?? main)?.focus();
}

/** Whether the focus is lost: on nothing, or on <body>. */
const focusLost = () => !document.activeElement || document.activeElement === document.body;

/** Whether the focus is lost, or left in a dialog that animates closed (a dialog that stays mounted) other than `kept`. */
const focusLostOrClosing = (kept: HTMLElement | null) => {
  if (focusLost()) return true;
  const dialog = document.activeElement!.closest('[role="dialog"]');
  return dialog !== null && dialog !== kept;
};

export interface FocusBack {
  /** Remembers what led to what follows: the element given, else the one focused now. */
  remember: (origin?: HTMLElement | null) => void;
  /** Wraps a handler that removes the focused control (a message's onClose): after it, the focus goes back. */
  after: <A extends unknown[]>(handler: (...args: A) => void) => (...args: A) => void;
}

export function useFocusBack(): FocusBack {
  const origin = useRef<HTMLElement | null>(null);
  const originDialog = useRef<HTMLElement | null>(null);
  const [returning, setReturning] = useState(0);
  // Set while the focus sits on the origin it was given back to.
  const watching = useRef(false);
  const focusFallback = () => {
    if (originDialog.current?.isConnected) originDialog.current.focus();
    else focusPageHeading();
  };
  useEffect(() => {
    // Only when the focus was lost (or is left in the dialog closing): a control the person moved to in the meantime keeps it.
    if (returning === 0 || !focusLostOrClosing(originDialog.current)) return;
    if (usable(origin.current)) {
      origin.current.focus();
      watching.current = true;
    } else focusFallback();
  }, [returning]);
  // What led there may go a moment later, when the list is read again (a row's button once its order
  // is signed off, "Retry all failed" once none is left): the focus then goes on as above.
  useEffect(() => {
    if (!watching.current) return;
    const el = origin.current;
    if (document.activeElement === el && usable(el)) return;
    watching.current = false;
    if (focusLost() || document.activeElement === el) focusFallback();
  });
  return {
    remember: (el) => {
      origin.current = el ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
      originDialog.current = origin.current?.closest<HTMLElement>('[role="dialog"]') ?? null;
    },
    after: (handler) => (...args) => {
      handler(...args);
      setReturning((n) => n + 1);
    },
  };
}
