/** jsdom lacks what Mantine asks the browser for: matchMedia, ResizeObserver, scrollIntoView, document.fonts (Textarea autosize). */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { closeErrorModal } from '../shell/error-modal-store';

// findBy/waitFor wait for a state, never sleep; their bound is a safety limit, and a machine running
// the whole suite beside other work can take more than Testing Library's default second to render.
configure({ asyncUtilTimeout: 5_000 });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() } });
}

afterEach(() => {
  cleanup();
  closeErrorModal();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});
