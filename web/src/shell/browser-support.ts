/**
 * Which browsers get the unsupported-browser warning (SPEC §2): desktop browsers other than
 * Chrome. Phones and tablets are exempt, whatever their browser.
 */

const MOBILE = /Android|iPhone|iPad|iPod|Mobile|Mobi|Opera Mini|IEMobile|BlackBerry|Silk|Kindle/i;
/** Chromium-based browsers that are not Chrome put their own token beside "Chrome/". */
const OTHER_CHROMIUM = /\b(?:Edg|EdgA|EdgiOS|OPR|Opera|SamsungBrowser|YaBrowser|Vivaldi|UCBrowser)\//;
const CHROME = /\b(?:HeadlessChrome|Chrome|Chromium)\/\d/;

export function isMobileBrowser(userAgent: string, maxTouchPoints = 0): boolean {
  // iPadOS presents itself as desktop Safari on a Mac; a Mac with a touch screen is an iPad.
  return MOBILE.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

export function isChrome(userAgent: string): boolean {
  return CHROME.test(userAgent) && !OTHER_CHROMIUM.test(userAgent);
}

export function needsUnsupportedBrowserWarning(userAgent: string, maxTouchPoints = 0): boolean {
  return !isMobileBrowser(userAgent, maxTouchPoints) && !isChrome(userAgent);
}

export const UNSUPPORTED_BROWSER_MESSAGE =
  'It appears you are on an unsupported browser. This application requires Chrome to provide the best and most stable experience. Please re-open this link in a Chrome browser';
