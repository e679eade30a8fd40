import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SETTINGS } from '../../src/config';

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('documents every setting with its flag, variable and default', () => {
    for (const s of SETTINGS) {
      const row = readme
        .split('\n')
        .find((line) => line.includes(`\`${s.env}\``) && line.startsWith('|'));
      assert.ok(row, `README has no table row for ${s.env}`);
      if (!('envOnly' in s && s.envOnly))
        assert.ok(row.includes(`\`--${s.flag}\``), `row of ${s.env} lacks --${s.flag}`);
      const shown = s.default === undefined ? 'unset' : `\`${s.default}\``;
      assert.ok(row.includes(shown), `row of ${s.env} does not show its default ${shown}`);
    }
  });

  it('shows the quick start commands', () => {
    assert.match(readme, /npm ci && npm start/);
    assert.match(readme, /npm test/);
  });
});
