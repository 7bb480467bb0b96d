// What the transcript view's markdown parser bundle (www/vendor/markdown.js,
// written by scripts/bundle-markdown.mjs) exports: micromark's mdast builder
// with the GFM table and strikethrough extensions. Parsing only: the page
// turns the tree into DOM nodes itself (www/views/transcript/markdown.js),
// so no HTML is ever produced or parsed.

export { fromMarkdown } from 'mdast-util-from-markdown';
export { gfmTable } from 'micromark-extension-gfm-table';
export { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
export { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
export { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
