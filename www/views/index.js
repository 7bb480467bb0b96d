// Registers every view; the order is the order of the tabs. A format's
// own views need nothing here (views/format.js shows them all); a view with
// page code of its own is imported here (see registry.js).

import { registerView, registerViewFamily } from './registry.js';
import { statsView } from './stats.js';
import { diagnosticsView } from './diagnostics.js';
import { spansView } from './spans.js';
import { timelineView } from './timeline.js';
import { formatViews } from './format.js';
import { agentRunView } from './agentrun.js';
import { transcriptView } from './transcript/index.js';
import { runsView } from './runs/index.js';
import { compareView } from './compare.js';
import { spanChartView } from './span-chart.js';

// `events` is the page's own list + detail view; it is always first.
registerView({ id: 'events', label: 'Events', available: () => true, render: () => {} });
// The conversation read as a chat: the default view of a trace that has one.
registerView(transcriptView);
registerView(runsView);
registerView(compareView);
registerView(statsView);
registerView(diagnosticsView);
registerView(spansView);
registerView(spanChartView);
registerView(timelineView);
registerViewFamily(formatViews);
registerView(agentRunView);

export { viewsFor, viewById } from './registry.js';
