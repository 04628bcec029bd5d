// Pure: which TestNG method and data-provider invocation a JUnit XML name stands for. Gradle and
// Surefire write a data-provider invocation differently; a plain name is the method itself.
//   Gradle:   adds[0](1, 1, 2)   index 0-based in brackets, the arguments in parentheses
//   Surefire: adds[1, 1, 2](1)   the arguments in brackets, the invocation 1-based in parentheses

/** A TestNG selection: the method and the 0-based invocation (-1: every invocation). */
export interface TestNgName {
  method: string;
  invocation: number;
}

const GRADLE = /^([\p{L}\p{N}_$]+)\[(\d+)\]\(.*\)$/su;
const SUREFIRE = /^([\p{L}\p{N}_$]+)\[.*\]\((\d+)\)$/su;

/** Reads `xmlName` as `convention` writes it. */
export function testNgName(xmlName: string, convention: 'gradle' | 'surefire'): TestNgName {
  const m = (convention === 'gradle' ? GRADLE : SUREFIRE).exec(xmlName);
  if (!m) return { method: xmlName, invocation: -1 };
  const n = Number(m[2]);
  return { method: m[1]!, invocation: convention === 'gradle' ? n : n - 1 };
}
