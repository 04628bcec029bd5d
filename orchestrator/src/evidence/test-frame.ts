// Pure: which frame of a Java stack trace is the test's own, the line its failures are grouped by.
// The first frame of the test's class (or of a class nested in it: inner, anonymous, a lambda's
// body or its hidden class); else, for a test whose code lives elsewhere (a test method inherited
// from a base class, a helper), the first frame that is neither the JDK's, a test framework's nor
// generated. Frames above it differ from one repetition to the next: a timeout lands in
// Thread.sleep once and in LockSupport.park the next, and a lambda's hidden class has a new
// address in every JVM. Grouping on them split one timeout into several "distinct" failures.

/** A frame's parts: "app//shop.CheckoutTest$$Lambda$12/0x0000000800c0b8.run(Unknown Source)" → shop.CheckoutTest$$Lambda$12, run, "Unknown Source". */
export interface Frame {
  cls: string;
  method: string;
  source: string;
}

/** Parses the text after "at " of a frame; the class without its module or class loader prefix, nor a hidden class's address. */
export function parseFrame(frame: string): Frame {
  const open = frame.indexOf('(');
  const head = open < 0 ? frame : frame.slice(0, open);
  const source = open < 0 ? '' : frame.slice(open + 1, frame.endsWith(')') ? -1 : undefined);
  const dot = head.lastIndexOf('.');
  // "module@1.0/pkg.Class" (a named module) or "app//pkg.Class" (a class loader's name); a hidden
  // class (a lambda's) ends in "/0x…", its address.
  const cls = head.slice(0, Math.max(0, dot)).replace(/\/0x[0-9a-f]+$/i, '');
  return { cls: cls.slice(cls.lastIndexOf('/') + 1), method: head.slice(dot + 1), source };
}

/** Whether `frame` ("pkg.Class$Inner.method(File.java:12)") belongs to `suite` or a class nested in it. */
export function inTestClass(frame: string, suite: string): boolean {
  return ownClass(parseFrame(frame).cls, suite);
}

const ownClass = (cls: string, suite: string): boolean => {
  const top = suite.replace(/\$.*$/, '');
  return cls === top || cls.startsWith(`${top}$`);
};

/** Packages of code that is not the test's: the JDK, test frameworks and assertion libraries, language runtimes, build tools and this gate's runner. */
const NOT_TEST_CODE = [
  'java.', 'javax.', 'jdk.', 'sun.', 'com.sun.',
  'org.junit.', 'junit.', 'org.opentest4j.', 'org.testng.', 'org.assertj.', 'org.hamcrest.', 'org.mockito.', 'net.bytebuddy.',
  'org.easymock.', 'org.awaitility.', 'com.google.common.truth.', 'org.spockframework.', 'io.kotest.', 'kotlin.', 'kotlinx.',
  'scala.', 'groovy.', 'org.codehaus.groovy.', 'org.apache.groovy.',
  'org.gradle.', 'worker.org.gradle.', 'org.apache.maven.', 'dev.stressgate.jvm.', 'dev.stressgate.gradle.',
];

/** Generated classes: a lambda's hidden class ($$Lambda), a mock or proxy ($$, $MockitoMock$, $Proxy), a method handle's form. */
const generated = (cls: string): boolean => cls.includes('$$') || cls.includes('$MockitoMock$') || cls.includes('$ByteBuddy$') || /(^|\.)\$Proxy\d+$/.test(cls) || cls.includes('LambdaForm$');

const lined = (f: Frame): boolean => /:\d+$/.test(f.source);

/** Whether a frame may be the test's code when the test's class is not in the trace. */
export const userCode = (f: Frame): boolean => f.cls !== '' && !generated(f.cls) && !NOT_TEST_CODE.some((p) => f.cls.startsWith(p));

/**
 * The frame failures are grouped by, as "pkg.Class.method(File.java:12)" (no module or loader
 * prefix): the first of the test's class with a line, else the first of user code with a line,
 * else the first of the test's class; null when none.
 */
export function groupingFrame(frames: readonly string[], suite: string): string | null {
  const parsed = frames.map(parseFrame);
  const own = (f: Frame) => ownClass(f.cls, suite) && !generated(f.cls);
  const f = parsed.find((p) => own(p) && lined(p)) ?? parsed.find((p) => userCode(p) && lined(p)) ?? parsed.find(own);
  return f ? `${f.cls}.${f.method}(${f.source})` : null;
}
