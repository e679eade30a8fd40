-- Imports from other trackers (issue 31, `admin import-from`, POST /v0/imports): each
-- entry an import created remembers the row of the file it came from, so that importing
-- the same file again creates nothing and a file that overlaps an earlier one adds only
-- its new rows. `key` is a digest of what identifies the row in any export of that tool
-- (its format, person, project, task, tags, notes, start, duration, URL: importers/format.ts
-- rowKey), 16 bytes as unpadded base64; the entry is kept even if it is later deleted,
-- so a deleted import is not brought back by importing the file again.
CREATE TABLE import_sources (
  key     TEXT PRIMARY KEY,
  time_id INTEGER NOT NULL REFERENCES times (id)
) STRICT, WITHOUT ROWID;
