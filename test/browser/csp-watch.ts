// Every page of a browser context reports its Content-Security-Policy violations to the test. The listener
// is an init script, which Playwright injects over the DevTools protocol: it runs before the page's own
// scripts and is not itself subject to the page's policy, and an exposed binding carries each
// securitypolicyviolation event out of the page, so a violation is seen even when nothing logs it.
import type { BrowserContext } from 'playwright-core';

const BINDING = '__reportCspViolation';

/** The parts of a SecurityPolicyViolationEvent the report names. */
interface Violation {
  effectiveDirective: string;
  blockedURI: string;
  sample: string;
  sourceFile: string;
  lineNumber: number;
}

type PageGlobals = Record<string, ((text: string) => Promise<void>) | undefined> & {
  document: { addEventListener(type: 'securitypolicyviolation', listener: (e: Violation) => void, capture: boolean): void };
};

/** Appends each violation of any page of `context` to `sink`, as "directive blocked-uri at source:line". */
export async function watchCspViolations(context: BrowserContext, sink: string[]): Promise<void> {
  await context.exposeBinding(BINDING, ({ page }, violation: string) => {
    sink.push(`${violation} on ${page?.url() ?? 'a page'}`);
  });
  await context.addInitScript((binding: string) => {
    // Typed by hand: the harness is compiled without the DOM's types too (the server's tests import it).
    const page = globalThis as unknown as PageGlobals;
    page.document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const where = e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : '';
        void page[binding]!(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}${e.sample ? ` "${e.sample}"` : ''}${where}`);
      },
      true,
    );
  }, BINDING);
}

/** Console messages in which Chromium says the policy refused something (it logs each violation too). */
export function cspConsoleMessages(messages: string[]): string[] {
  return messages.filter((m) => /Content Security Policy|Content-Security-Policy/i.test(m));
}
