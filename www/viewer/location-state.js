// Where the state a link should carry lives: with `hash`, the page's URL
// hash (history entries included); without it, a hash kept in the viewer,
// so that the viewer behaves the same either way.

/** Adds `currentHash`, `setHash` and `setSearch` to the viewer context `v`. */
export function installLocationState(v) {
  const { o } = v;
  /** The hash without `hash`: the same state, kept here instead of in the page's URL. */
  let keptHash = '';

  function currentHash() {
    return o.hash ? location.hash : keptHash;
  }

  function setHash(hash, { push = false } = {}) {
    if (!o.hash) {
      keptHash = hash === '#' ? '' : hash;
      return;
    }
    if (push) history.pushState(null, '', hash);
    else history.replaceState(null, '', hash);
  }

  /** After a new load: the query string that reloads it, and the hash kept or dropped. */
  function setSearch(search, keepHash) {
    if (!o.hash) {
      if (!keepHash) keptHash = '';
      return;
    }
    // Only when it changes: replaceState is a synchronous round trip to the browser, which
    // took 100-200 ms of a folder pick's task while the browser was busy with its 10,000 files.
    const url = `${location.pathname}${search}${keepHash ? location.hash : ''}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
  }

  Object.assign(v, { currentHash, setHash, setSearch });
}
