/**
 * saveFile hands a file made in the page to the browser as a download, through a link to a blob:
 * URL (same origin, no request leaves the page).
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after this task, when the download starts: it is released well after.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
