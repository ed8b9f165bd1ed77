/**
 * The page's own script, served as `{graphqlPath}/ide/boot.js` (a file, not inline, so the
 * Content-Security-Policy can say `script-src 'self'`). Kept as text rather than a compiled
 * function: coverage instrumentation would otherwise rewrite it into something the browser
 * cannot run. Plain ES2020 for evergreen browsers; it reads its settings from the JSON block
 * `#netgraph-ide-config` that page.ts writes.
 */
export const BOOT_SCRIPT = String.raw`'use strict';
(function () {
  var config = JSON.parse(document.getElementById('netgraph-ide-config').textContent);
  // GraphiQL's bundle puts this global on the <style> elements it creates (see csp.ts).
  window.__webpack_nonce__ = config.styleNonce;

  // The page is served at the GraphQL endpoint itself, so its own address is the API's address,
  // whatever host, port, scheme or path prefix a proxy in front of the gateway uses.
  var url = location.origin + location.pathname;
  var subscriptionUrl = (location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + location.pathname;

  var defaultHeaders = config.defaultHeaders || {};
  var defaultHeadersText = Object.keys(defaultHeaders).length ? JSON.stringify(defaultHeaders, null, 2) : '';

  function authorizationOf(headers) {
    for (var key in headers) {
      if (key.toLowerCase() === 'authorization' && typeof headers[key] === 'string') return headers[key];
    }
    return undefined;
  }

  // The operations of a document, in order: { type, name }. A small scan (comments and strings
  // skipped, braces counted) rather than a parser, since the page has no graphql-js of its own.
  function operationsOf(query) {
    var text = String(query)
      .replace(/"""[\s\S]*?"""/g, '""')
      .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
      .replace(/#[^\n\r]*/g, '');
    var ops = [];
    var depth = 0;
    var pattern = /[{}]|(?<![$\w])(query|mutation|subscription|fragment)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g;
    var pendingKeyword = false;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (match[0] === '{') {
        if (depth === 0 && !pendingKeyword) ops.push({ type: 'query', name: undefined });
        pendingKeyword = false;
        depth++;
      } else if (match[0] === '}') {
        depth = Math.max(0, depth - 1);
      } else if (depth === 0) {
        pendingKeyword = true;
        if (match[1] !== 'fragment') ops.push({ type: match[1], name: match[2] });
      }
    }
    return ops;
  }

  // GraphiQL 3 passes the operation name and parsed document as they were up to 100 ms before a
  // run (graphql/graphiql#1807): paste and run at once, and the new text went out with the old
  // operation's name, or a subscription over HTTP. Both are derived again from the text it sends.
  function current(params, options) {
    var ops = operationsOf(params.query);
    var op = ops.filter(function (o) { return o.name !== undefined && o.name === params.operationName; })[0];
    if (!op && ops.length === 1) op = ops[0];
    if (!op) return { params: params, options: options };
    var name = op.name === undefined ? undefined : { kind: 'Name', value: op.name };
    var documentAST = {
      kind: 'Document',
      definitions: [{ kind: 'OperationDefinition', operation: op.type, name: name, variableDefinitions: [], directives: [], selectionSet: { kind: 'SelectionSet', selections: [] } }],
    };
    return {
      params: Object.assign({}, params, { operationName: op.name }),
      options: Object.assign({}, options, { documentAST: documentAST }),
    };
  }

  // graphql-ws cannot send HTTP headers, so the gateway reads the token from the connection_init
  // payload { authorization }. It comes from the headers editor, as for queries; the configured
  // default is used only when GraphiQL hands over no headers at all.
  function fetcher(params, options) {
    var headers = options && options.headers ? options.headers : defaultHeaders;
    var authorization = authorizationOf(headers);
    var run = current(params, options);
    return GraphiQL.createFetcher({
      url: url,
      subscriptionUrl: subscriptionUrl,
      wsConnectionParams: authorization ? { authorization: authorization } : {},
    })(run.params, run.options);
  }

  // The token is not kept in localStorage. GraphiQL 3 stores tabs without headers when
  // shouldPersistHeaders is off, but its history and favourites keep each run's headers anyway:
  // those are dropped on the way in. On the way out, every stored tab and history entry without
  // headers gets the default headers, so a reload or a click on a history entry keeps working.
  var base = GraphiQL.createLocalStorage({ namespace: 'netgraph:' + location.pathname });
  var LISTS = { tabState: ['tabs'], queries: ['queries', 'favorites'], favorites: ['queries', 'favorites'] };

  function mapEntries(key, value, change) {
    var lists = LISTS[key.slice(key.lastIndexOf(':') + 1)];
    if (!lists || !value) return value;
    try {
      var stored = JSON.parse(value);
      lists.forEach(function (list) {
        (Array.isArray(stored[list]) ? stored[list] : []).forEach(change);
      });
      return JSON.stringify(stored);
    } catch (e) {
      return value;
    }
  }

  var storage = {
    getItem: function (key) {
      return mapEntries(key, base.getItem(key), function (entry) {
        if (!entry.headers) entry.headers = defaultHeadersText;
      });
    },
    setItem: function (key, value) {
      base.setItem(key, mapEntries(key, value, function (entry) {
        delete entry.headers;
      }));
    },
    removeItem: base.removeItem,
    clear: base.clear,
    get length() {
      return base.length;
    },
  };

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(
      GraphiQL,
      {
        fetcher: fetcher,
        defaultQuery: config.defaultQuery,
        defaultHeaders: defaultHeadersText,
        isHeadersEditorEnabled: true,
        shouldPersistHeaders: false,
        defaultEditorToolsVisibility: defaultHeadersText ? 'headers' : false,
        storage: storage,
        // The query Explorer in the sidebar: tick fields (and fill arguments) to build a query.
        plugins: [GraphiQLPluginExplorer.explorerPlugin()],
      },
      // The logo slot also links the network map (GET /map; page-relative, like the assets).
      React.createElement(GraphiQL.Logo, null, config.title, ' ', React.createElement('a', { href: 'map', className: 'netgraph-map-link' }, 'network map')),
    ),
  );
})();
`;
