// The status line, load errors, and the progress bar of a read or parse.

import { el, clear } from '../dom.js';
import { formatBytes } from './shared.js';

/** Adds `setStatus`, `showLoadError` and `progress` to the viewer context `v`. */
export function installStatus(v) {
  const { $ } = v;

  function setStatus(text) {
    // One line: a long file name is cut with an ellipsis, and said whole on hover.
    const status = $('status');
    status.textContent = text;
    status.title = text;
  }

  function showLoadError(message, what = 'Could not read this file') {
    const box = $('load-error');
    clear(box).append(el('strong', {}, `${what}: `), message);
    box.hidden = false;
    v.emit('error', { message, what });
  }

  const progress = {
    timer: 0,
    start(label) {
      $('progress').hidden = false;
      $('progress-label').textContent = label;
      this.t0 = performance.now();
      this.bytes(0, 0);
    },
    bytes(done, total) {
      const bar = $('progress-bar');
      const secs = Math.max(0.001, (performance.now() - this.t0) / 1000);
      if (total > 0) {
        bar.max = total;
        bar.value = done;
      } else {
        bar.removeAttribute('value');
      }
      const rate = done / 1024 / 1024 / secs;
      $('progress-text').textContent = `${formatBytes(done)}${total ? ` of ${formatBytes(total)}` : ''} · ${rate.toFixed(1)} MB/s`;
    },
    parsing(label, size) {
      const bar = $('progress-bar');
      bar.removeAttribute('value');
      $('progress-label').textContent = label;
      const t0 = performance.now();
      const tick = () => ($('progress-text').textContent = `${formatBytes(size)} · ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      tick();
      clearInterval(this.timer);
      this.timer = setInterval(tick, 250);
    },
    stop() {
      clearInterval(this.timer);
      $('progress').hidden = true;
    },
  };

  Object.assign(v, { setStatus, showLoadError, progress });
}
