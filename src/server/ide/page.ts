/** Settings the page's boot script reads from the inlined JSON block. */
export interface IdePageConfig {
  title: string;
  defaultQuery: string;
  defaultHeaders: Record<string, string>;
  /** This response's CSP nonce for the <style> elements GraphiQL creates at run time. */
  styleNonce: string;
}

export interface IdePageInput {
  config: IdePageConfig;
  /** URL (relative to the page) of each allow-listed asset, by name. */
  assetUrl: (name: string) => string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` can start `</script>` or
 * `<!--`, and U+2028/U+2029 are escaped for old parsers. JSON.parse of the text gives back the
 * exact value, because `\u003c` and friends are ordinary JSON string escapes.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function renderIdePage({ config, assetUrl }: IdePageInput): string {
  const asset = (name: string): string => escapeHtml(assetUrl(name));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(config.title)}</title>
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<link rel="stylesheet" href="${asset('graphiql-plugin-explorer.css')}">
<link rel="stylesheet" href="${asset('ide.css')}">
</head>
<body>
<div id="graphiql">Loading the GraphQL IDE…</div>
<noscript>The GraphQL IDE needs JavaScript. The API itself answers POST requests at this address.</noscript>
<script type="application/json" id="netgraph-ide-config">${jsonForScript(config)}</script>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('graphiql-plugin-explorer.umd.js')}"></script>
<script src="${asset('boot.js')}"></script>
</body>
</html>
`;
}
