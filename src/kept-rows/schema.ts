// What PUT /v0/weeks/:username/:week/rows accepts (issue 34).
import * as v from 'valibot';
import { isSlug } from '../identifiers';
import { type KeptRowsUpdate, MAX_KEPT_ROWS, MAX_ROW_ACTIVITIES } from '../shapes/kept-rows';
import { sameKeys } from '../shapes/kit';
import { boundedArray, slugArray } from '../validate';

const row = v.strictObject({
  project: v.pipe(v.string(), v.check(isSlug)),
  activities: slugArray(MAX_ROW_ACTIVITIES),
});

export const keptRowsSchema = v.strictObject({
  rows: v.message(
    boundedArray(row, MAX_KEPT_ROWS),
    `array of at most ${MAX_KEPT_ROWS} rows, each {project: slug, activities: array of at most ${MAX_ROW_ACTIVITIES} slugs}`,
  ),
});

sameKeys<v.InferInput<typeof keptRowsSchema>, KeptRowsUpdate>(true);
