// The keyboard walk: Tab from the top of the page to the end, and every visible control (button, link,
// field, list, text area, summary, focusable element, editable text, an element with a button, link,
// checkbox or switch role) must have had the focus, and have an accessible name (axe-core's computation,
// the one screen readers follow). A radio group is one stop.
// In the code editor Tab indents; Escape then Tab leaves it (CodeMirror's documented way out), as here.
import type { Page } from 'playwright-core';
import { loadAxe } from './audit.js';

interface Walk {
  controls: Element[];
  /** The index in `controls` each focus landed on (a radio stands for its group's first). */
  reached: Set<number>;
  listener: (e: FocusEvent) => void;
  /** Focused first so the walk starts at the top, wherever the last click left the browser's starting point. */
  start: HTMLElement;
}

/** A walk only means something over a page that holds still: a control re-rendered mid-walk is a new element. */
const ATTEMPTS = 3;

/** The most Tabs one control can take: a datetime-local field stops on each of its five parts. */
const TABS_PER_CONTROL = 5;

/** Controls not reached by Tab or without an accessible name, one line each; empty when all is well. */
export async function keyboardFindings(page: Page): Promise<string[]> {
  await loadAxe(page);
  for (let attempt = 1; ; attempt++) {
    const { findings, replaced } = await walk(page);
    if (replaced === 0) return findings;
    if (attempt === ATTEMPTS) return [...findings, `the page replaced ${replaced} controls during each of ${ATTEMPTS} walks`];
    await settled(page);
  }
}

/** Resolves once the page's DOM has not changed for a quarter of a second (or after 5 s of changes). */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let quiet = setTimeout(done, 250);
        const giveUp = setTimeout(done, 5000);
        const observer = new MutationObserver(() => {
          clearTimeout(quiet);
          quiet = setTimeout(done, 250);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        function done() {
          observer.disconnect();
          clearTimeout(quiet);
          clearTimeout(giveUp);
          resolve();
        }
      }),
  );
}

/** One Tab walk from the top; `replaced` counts the controls no longer in the page at its end. */
async function walk(page: Page): Promise<{ findings: string[]; replaced: number }> {
  const count = await page.evaluate(() => {
    // Native controls, anything given a tab stop, and elements that claim a control's role without one.
    const SELECTOR = 'button, a[href], input, select, textarea, summary, [tabindex], [contenteditable="true"], [role="button"], [role="link"], [role="checkbox"], [role="switch"]';
    const shown = (el: Element) => el.getClientRects().length > 0 && el.checkVisibility({ visibilityProperty: true });
    const usable = (el: Element) => !el.matches(':disabled, [tabindex="-1"], input[type="hidden"]') && !el.closest('[inert]');
    const all = [...document.querySelectorAll(SELECTOR)].filter((el) => shown(el) && usable(el));
    const groupOf = (el: Element) => (el instanceof HTMLInputElement && el.type === 'radio' && el.name ? `${el.form?.id ?? ''}/${el.name}` : undefined);
    const firsts = new Map<string, Element>();
    const controls = all.filter((el) => {
      const group = groupOf(el);
      if (!group) return true;
      if (firsts.has(group)) return false;
      firsts.set(group, el);
      return true;
    });
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.prepend(start);
    const walk: Walk = { controls, reached: new Set(), start, listener: (e) => {
      const target = e.target as Element;
      const group = groupOf(target);
      const index = controls.indexOf(group ? firsts.get(group)! : target);
      if (index >= 0) walk.reached.add(index);
    } };
    document.addEventListener('focusin', walk.listener, true);
    (window as unknown as { keyboardWalk: Walk }).keyboardWalk = walk;
    start.focus();
    return controls.length;
  });
  // The walk ends when the focus leaves the page after the last control. A control may take several Tabs
  // (a date field stops on its day, month and year), so the budget is generous, and running out of it is a
  // finding of its own rather than a silent miss of the controls at the end of the page.
  const budget = count * TABS_PER_CONTROL + 20;
  let left = false;
  for (let step = 0; step < budget && !left; step++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'left';
      if (active === (window as unknown as { keyboardWalk: Walk }).keyboardWalk.start) return 'start';
      return active.classList.contains('cm-content') ? 'editor' : 'control';
    });
    left = where === 'left' && step > 0;
    if (where === 'editor') await page.keyboard.press('Escape');
  }
  const ending = left ? [] : [`the focus was still in the page after ${budget} Tabs`];
  const result = await page.evaluate(() => {
    const { controls, reached, listener, start } = (window as unknown as { keyboardWalk: Walk }).keyboardWalk;
    document.removeEventListener('focusin', listener, true);
    start.remove();
    const axe = (window as unknown as { axe: { setup(node: Element): void; teardown(): void; commons: { text: { accessibleText(el: Element): string } } } }).axe;
    const describe = (el: Element) => el.outerHTML.replace(/\s+/g, ' ').slice(0, 120);
    const findings: string[] = [];
    const present = controls.filter((el) => el.isConnected);
    axe.setup(document.documentElement);
    try {
      controls.forEach((el, i) => {
        if (!el.isConnected) return;
        if (!reached.has(i)) findings.push(`not reached by Tab: ${describe(el)}`);
        if (axe.commons.text.accessibleText(el).trim() === '') findings.push(`no accessible name: ${describe(el)}`);
      });
    } finally {
      axe.teardown();
    }
    return { findings, replaced: controls.length - present.length };
  });
  return { findings: [...ending, ...result.findings], replaced: result.replaced };
}
