-- Reports over everyone's entries in a date range (GET /v0/reports by a caller who sees
-- every entry, without a user or project filter) read the range from this index alone:
-- it holds every column such a report filters, groups or sums by. Only reports use it:
-- its condition (true of every row: durations are ≥ 0) is one that only the report
-- statement states, so the plans of the time lists stay as they are.
CREATE INDEX times_report_date ON times (date_worked, project_id, user_id, duration, deleted_at)
  WHERE duration >= 0;
