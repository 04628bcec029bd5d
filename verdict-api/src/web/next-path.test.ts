import { describe, expect, it } from '@jest/globals';
import { safeNextPath, signInPathFor } from './next-path.js';

/** Values a link could carry to send a person elsewhere after signing in. */
const HOSTILE_NEXT = [
  'https://evil.example/projects',
  'http:evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\/evil.example',
  '/\\/evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  ' /projects',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  'javascript:alert(1)',
  'evil.example',
  '/sign-in?next=//evil.example',
  '/api/v1/projects/shop/settings',
  '/projects\r\nSet-Cookie: sg_session=x',
  `/${'a'.repeat(2100)}`,
  '',
];

describe('safeNextPath', () => {
  it('keeps a path of this dashboard with its query', () => {
    expect(safeNextPath('/projects/shop/runs/run-1')).toBe('/projects/shop/runs/run-1');
    expect(safeNextPath('/projects/shop/test-cases/x?tab=runs')).toBe('/projects/shop/test-cases/x?tab=runs');
    expect(safeNextPath('/projects/shop/runs/a%2Fb')).toBe('/projects/shop/runs/a%2Fb');
    expect(safeNextPath('/projects/shop/../other/runs')).toBe('/projects/other/runs');
  });

  it.each(HOSTILE_NEXT.map((v) => [JSON.stringify(v.length > 60 ? `${v.slice(0, 20)}… (${v.length} characters)` : v), v]))('refuses %s', (_label, value) => {
    expect(safeNextPath(value)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeNextPath(undefined)).toBeNull();
    expect(safeNextPath(['/projects'])).toBeNull();
  });
});

describe('signInPathFor', () => {
  it('names the page asked for, but not the default landing page', () => {
    expect(signInPathFor('/projects/shop/runs/run 1?x=1')).toBe('/sign-in?next=%2Fprojects%2Fshop%2Fruns%2Frun%25201%3Fx%3D1');
    expect(signInPathFor('/projects')).toBe('/sign-in');
    expect(signInPathFor('/')).toBe('/sign-in');
  });
});
