// Registers every view; the order is the order of the tabs. Add a
// format-specific view by importing its module here (see registry.js).

import { registerView } from './registry.js';
import { statsView } from './stats.js';
import { diagnosticsView } from './diagnostics.js';
import { spansView } from './spans.js';
import { timelineView } from './timeline.js';
import { condensedView, llmMessagesView } from './openhands.js';
import { agentRunView } from './agentrun.js';

// `events` is the page's own list + detail view; it is always first.
registerView({ id: 'events', label: 'Events', available: () => true, render: () => {} });
registerView(statsView);
registerView(diagnosticsView);
registerView(spansView);
registerView(timelineView);
registerView(condensedView);
registerView(llmMessagesView);
registerView(agentRunView);

export { viewsFor, viewById } from './registry.js';
