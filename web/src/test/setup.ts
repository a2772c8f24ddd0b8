/** jsdom lacks what Mantine asks the browser for: matchMedia, ResizeObserver, scrollIntoView, document.fonts (Textarea autosize). */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { closeErrorModal } from '../shell/error-modal-store';

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
