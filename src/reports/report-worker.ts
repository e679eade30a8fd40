// Runs inside a worker thread (db/text-streams.ts): large reports, grouped by SQLite and
// written as JSON or CSV a piece at a time on connections of its own, so that neither
// the grouping nor the writing holds the event loop (reports/store.ts says which).
import { serveTextStreams } from '../db/text-stream-worker';
import { openReportText } from './text';

serveTextStreams(openReportText);
