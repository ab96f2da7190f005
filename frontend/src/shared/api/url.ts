/**
 * Where the API is: `api/…` relative to the page, so that every page works wherever the site is
 * mounted (`satlab serve` serves the site at / and the API at /api; a proxy may put both under a
 * path). base is the document's base URL in the browser.
 */
export function apiUrl(path: string, base: string = document.baseURI): string {
  return new URL(`api/${path.replace(/^\/+/, '')}`, base).toString();
}

/** streamUrl is apiUrl for a WebSocket: ws: beside http:, wss: beside https:. */
export function streamUrl(path: string, base: string = document.baseURI): string {
  const url = new URL(apiUrl(path, base));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
