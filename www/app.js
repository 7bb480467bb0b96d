// The standalone page: one viewer that owns the page (its URL hash, the
// keyboard, drops anywhere, the open controls, samples, `?url=`). The viewer
// itself is viewer.js, the same module apps embed.

import { mountViewer } from './viewer.js';

const viewer = mountViewer(document.getElementById('app'), {
  hash: true,
  globalKeys: true,
  controls: true,
  samples: true,
  urlParam: true,
  dropTarget: document,
  title: 'agent-trace-viewer',
  // The page's only viewer keeps plain ids (links and tests name them).
  idPrefix: '',
  // The build's list of the viewer's files (scripts/build.sh): the Bundle button packs them.
  bundleManifest: 'files.json',
});

viewer.ready.then(
  () => (document.body.dataset.ready = 'true'),
  () => {},
);

// For tests and the console: which view is shown, how many rows match.
window.__viewer = viewer._debug;
