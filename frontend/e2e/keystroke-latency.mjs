// How long a keystroke takes to show, measured in the page itself, for the channel lab's
// Playwright spec and for make bench-frontend (bench/frontend.bench.mjs).

/**
 * watchKeystrokes runs in the page (page.evaluate or addInitScript): from then on, every keystroke
 * in a field adds a performance measure named "keystroke", from the key event's time stamp to the
 * end of the first frame painted with the field's new value. A frame's requestAnimationFrame
 * callbacks run just before it is painted, and a message posted from one is handled only after.
 */
export function watchKeystrokes() {
  document.addEventListener(
    'keydown',
    (event) => {
      const field = event.target;
      if (!(field instanceof HTMLInputElement)) return;
      const before = field.value;
      const pressed = event.timeStamp;
      const whenPainted = () => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => performance.measure('keystroke', { start: pressed, end: performance.now() });
        channel.port2.postMessage(null);
      };
      const nextFrame = () => requestAnimationFrame(() => (field.value === before ? nextFrame() : whenPainted()));
      nextFrame();
    },
    true,
  );
}

/** keystrokeLatencies runs in the page: each keystroke's time to show so far, in ms, in order. */
export function keystrokeLatencies() {
  return performance.getEntriesByName('keystroke').map((entry) => entry.duration);
}
