import type { Page } from 'playwright-core';
import { waitUntil } from '../helpers/wait';

/**
 * Driving GraphiQL 3 the way a user does: its CodeMirror editors, the run button, the response
 * pane, the Docs button. Page-side code is passed as strings so that nothing (e.g. coverage
 * instrumentation) rewrites it before it reaches the browser.
 */
export const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
/** The visible one of the Variables/Headers editors (the page opens on Headers). */
export const TOOL_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
export const RESULT_PANE = '.result-window .CodeMirror';
const RUN_BUTTON = '.graphiql-execute-button';

function codeMirror(selector: string): string {
  return `document.querySelector(${JSON.stringify(selector)}).CodeMirror`;
}

/**
 * Polls a page-side expression until it is truthy (not null, undefined or false) and returns its
 * value. Not `page.waitForFunction`: that evaluates its predicate with eval inside the page, which
 * the pages' CSP (rightly) refuses.
 */
export function untilOnPage(page: Page, expression: string, what: string): Promise<unknown> {
  return waitUntil((): Promise<unknown> => page.evaluate(expression), `until ${what}`, { intervalMs: 25 });
}

export async function openIde(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector(QUERY_EDITOR, { timeout: 20000 });
  await page.waitForSelector(RUN_BUTTON);
}

export async function editorValue(page: Page, selector: string): Promise<string> {
  const value: unknown = await page.evaluate(`${codeMirror(selector)}.getValue()`);
  if (typeof value !== 'string') throw new Error(`no CodeMirror editor at ${selector}`);
  return value;
}

export async function setEditorValue(page: Page, selector: string, text: string): Promise<void> {
  await page.evaluate(`${codeMirror(selector)}.setValue(${JSON.stringify(text)})`);
}

/** Header the GraphiQL tab has open in its tools pane ("Variables" or "Headers"). */
export async function activeToolTab(page: Page): Promise<string> {
  return (await page.locator('.graphiql-editor-tools button.active').innerText()).trim();
}

/**
 * Waits until GraphiQL has parsed the query editor's current text. GraphiQL reads the query
 * text itself at run time, but the operation name and the parsed document (which decides
 * whether the fetcher opens a websocket) come from facts its change handler stores on the
 * editor 100 ms after the last edit (graphql/graphiql#1807). A click before then sends the
 * new text with the previous operation's name, and records that name in the history.
 */
export async function waitForQueryParsed(page: Page): Promise<void> {
  const expression = `(() => {
    const cm = ${codeMirror(QUERY_EDITOR)};
    const source = cm.documentAST && cm.documentAST.loc && cm.documentAST.loc.source;
    return Boolean(source) && source.body === cm.getValue();
  })()`;
  await untilOnPage(page, expression, 'GraphiQL has parsed the query editor');
}

/**
 * Clicks run once GraphiQL has taken the query editor's text, and returns the response pane as
 * JSON once it holds a response matching `until` (subscriptions update the pane with each event).
 */
export async function runAndReadResult(
  page: Page,
  until: (result: unknown) => boolean = () => true,
  { waitForParse = true }: { waitForParse?: boolean } = {},
): Promise<unknown> {
  await setEditorValue(page, RESULT_PANE, '');
  // Without the wait: a user who pastes and runs at once (the page must cope, see boot-script.ts).
  if (waitForParse) await waitForQueryParsed(page);
  await page.click(RUN_BUTTON);
  return readResultUntil(page, until);
}

/**
 * The response pane as JSON once it holds a response matching `until`, without running anything:
 * for the next events of a running subscription (each replaces the pane's content).
 */
export async function readResultUntil(page: Page, until: (result: unknown) => boolean): Promise<unknown> {
  let last = '';
  const read = async (): Promise<{ parsed: unknown } | null> => {
    last = await editorValue(page, RESULT_PANE);
    if (!last.trim()) return null;
    try {
      const parsed: unknown = JSON.parse(last);
      return until(parsed) ? { parsed } : null;
    } catch {
      return null; // partial or non-JSON text: keep waiting
    }
  };
  return (await waitUntil(read, () => `a matching response in the result pane; it shows:\n${last}`, { intervalMs: 100 })).parsed;
}

/**
 * Waits until GraphiQL has written its tabs to localStorage with `text` in them (it stores them
 * 500 ms after the last change of any tab, so a reload before that restores older tabs).
 */
export async function waitForStoredTabs(page: Page, text: string): Promise<void> {
  const expression = `Object.keys(localStorage).some((key) =>
    key.endsWith(':tabState') && (localStorage.getItem(key) || '').includes(${JSON.stringify(text)}))`;
  await untilOnPage(page, expression, `the tabs in localStorage contain ${text}`);
}

/** Opens the Docs sidebar and returns its text. */
export async function openDocs(page: Page): Promise<string> {
  await page.click('[aria-label="Show Documentation Explorer"]');
  const explorer = page.locator('.graphiql-doc-explorer');
  await explorer.locator('.graphiql-doc-explorer-root-type').first().waitFor({ timeout: 15000 });
  return explorer.innerText();
}

/** Opens the query Explorer sidebar (@graphiql/plugin-explorer). */
export async function openExplorer(page: Page): Promise<void> {
  await page.click('[aria-label="Show GraphiQL Explorer"]');
  await page.locator('.graphiql-explorer-root [data-field-name]').first().waitFor({ timeout: 15000 });
}

/**
 * Ticks fields in the Explorer as a user does, from the root down (`['networks', 'nodes', 'name']`):
 * each field is clicked within the node of the one before it, which that click has opened.
 */
export async function tickExplorerFields(page: Page, path: readonly string[]): Promise<void> {
  let scope = page.locator('.graphiql-explorer-root');
  for (const name of path) {
    const field = scope.locator(`[data-field-name="${name}"]`).first();
    await field.click();
    // Once ticked, the field's row (its name and arguments) and its sub-fields share a wrapper.
    scope = field.locator('xpath=../..');
  }
}
