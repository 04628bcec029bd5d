import { describe, expect, it } from '@jest/globals';
import type { Project } from '../accounts/projects.js';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import { SettingsPage } from './settings-page.js';

const project = (timingSensitiveBlocks: boolean): Project => ({
  projectId: '00000000-0000-4000-8000-000000000001',
  accountId: '00000000-0000-4000-8000-000000000002',
  handle: 'shop',
  defaultBranch: 'main',
  flakyPolicy: DEFAULT_FLAKY_POLICY,
  stress: { ...DEFAULT_STRESS_PARAMETERS, timingSensitiveBlocks },
});
const render = (on: boolean) => String(SettingsPage({ frame: { title: 'Settings', project: 'shop', account: 'a', csrf: 'x' }, project: project(on), entitled: true, audit: [] }));
/** The checkbox's tag, inside its label with the label's text. */
const CHECKBOX = /<label><span>(<input[^>]*name="timingSensitiveBlocks"[^>]*>) Block on timing-sensitive tests<\/span><\/label>/;

describe('the settings page: timing-sensitive tests', () => {
  it('shows a labelled checkbox, unchecked when the setting is off, with its one-line explanation', () => {
    const html = render(false);
    const input = CHECKBOX.exec(html)?.[1];
    expect(input).toBeDefined();
    expect(input).toContain('type="checkbox"');
    expect(input).toContain('value="1"');
    expect(input).not.toMatch(/\schecked/);
    expect(input).toContain('aria-describedby="timing-sensitive-hint"');
    expect(html).toMatch(/<p id="timing-sensitive-hint" class="hint">A new test that failed only while its repetitions ran side by side, and passed every one alone, fails the gate; unchecked, it is reported without blocking\.<\/p>/);
  });

  it('checks it when the setting is on', () => {
    expect(CHECKBOX.exec(render(true))?.[1]).toMatch(/\schecked/);
  });
});

describe('the settings page: order-dependent tests', () => {
  const ORDER = /<label><span>(<input[^>]*name="orderFindingsBlock"[^>]*>) Block on order-dependent tests<\/span><\/label>/;
  it('shows a labelled checkbox, checked by default (the setting is on), with its explanation', () => {
    const html = render(false);
    const input = ORDER.exec(html)?.[1];
    expect(input).toMatch(/\schecked/);
    expect(input).toContain('aria-describedby="order-findings-hint"');
    expect(html).toContain('<p id="order-findings-hint" class="hint">A new test the order probe found order-dependent');
  });

  it('unchecks it when the project made order findings report-only', () => {
    const off: Project = { ...project(false), stress: { ...project(false).stress, orderFindingsBlock: false } };
    const html = String(SettingsPage({ frame: { title: 'Settings', project: 'shop', account: 'a', csrf: 'x' }, project: off, entitled: true, audit: [] }));
    expect(ORDER.exec(html)?.[1]).not.toMatch(/\schecked/);
  });
});

describe('the settings page: modified tests', () => {
  const MODIFIED = /<label><span>(<input[^>]*name="modifiedTestsBlock"[^>]*>) Block on modified tests<\/span><\/label>/;
  it('shows a labelled checkbox, unchecked by default (the setting is off), with its explanation', () => {
    const html = render(false);
    const input = MODIFIED.exec(html)?.[1];
    expect(input).not.toMatch(/\schecked/);
    expect(input).toContain('aria-describedby="modified-tests-hint"');
    expect(html).toContain('<p id="modified-tests-hint" class="hint">A test the merge request modified that disagreed with itself blocks the merge in enforce; otherwise modified tests are stressed and reported only.');
  });

  it('checks it when the project turned it on', () => {
    const on: Project = { ...project(false), stress: { ...project(false).stress, modifiedTestsBlock: true } };
    const html = String(SettingsPage({ frame: { title: 'Settings', project: 'shop', account: 'a', csrf: 'x' }, project: on, entitled: true, audit: [] }));
    expect(MODIFIED.exec(html)?.[1]).toMatch(/\schecked/);
  });
});
