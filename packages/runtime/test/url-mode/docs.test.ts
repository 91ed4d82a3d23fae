import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as consent from '../../src/client/consent/index.js';
import { refusalPage } from '../../src/url-mode/connect-pages.js';
import * as urlMode from '../../src/url-mode/index.js';
import { REPOSITORY } from '../fixtures/clients.js';

// docs/url-mode.md must match the code: every export, refusal and warning it promises.

const doc = readFileSync(path.join(REPOSITORY, 'docs/url-mode.md'), 'utf8');
const row = (code: string) => doc.split('\n').find((line) => line.startsWith(`| \`${code}\``));

describe('docs/url-mode.md', () => {
  it.each([...Object.keys(urlMode), ...Object.keys(consent)].filter((name) => !/^[A-Z_]+$/.test(name)))(
    'names the export %s',
    (name) => {
      expect(doc).toContain(name);
    },
  );

  it.each(urlMode.CONNECT_REFUSALS)('has the refusal %s with the status the endpoint answers', (reason) => {
    expect(row(reason)).toMatch(new RegExp(`^\\| \`${reason}\` +\\| ${refusalPage(reason, 'x').status} `));
  });

  it.each(consent.URL_WARNING_CODES)('has the warning %s', (code) => {
    expect(row(code)).toBeDefined();
  });

  it('shows what formatUrlConsent prints', () => {
    const printed = consent.formatUrlConsent(
      consent.describeUrlForConsent('http://github.com.evil.example/login', {
        serverName: 'Acme Tools',
        message: 'Connect your GitHub account.',
      }),
    );
    expect(doc).toContain(`\`\`\`text\n${printed}\n\`\`\``);
  });
});
