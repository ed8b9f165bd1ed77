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

  // graphql-ws cannot send HTTP headers, so the gateway reads the token from the connection_init
  // payload { authorization }. It comes from the headers editor, as for queries; the configured
  // default is used only when GraphiQL hands over no headers at all.
  function fetcher(params, options) {
    var headers = options && options.headers ? options.headers : defaultHeaders;
    var authorization = authorizationOf(headers);
    return GraphiQL.createFetcher({
      url: url,
      subscriptionUrl: subscriptionUrl,
      wsConnectionParams: authorization ? { authorization: authorization } : {},
    })(params, options);
  }

  // Tabs are kept in localStorage without their headers (the token is not persisted); a restored
  // tab whose headers were dropped gets the default headers again, so a reload keeps working.
  var base = GraphiQL.createLocalStorage({ namespace: 'netgraph:' + location.pathname });
  var storage = {
    getItem: function (key) {
      var value = base.getItem(key);
      if (!value || !defaultHeadersText || !/:tabState$/.test(key)) return value;
      try {
        var state = JSON.parse(value);
        (state.tabs || []).forEach(function (tab) {
          if (!tab.headers) tab.headers = defaultHeadersText;
        });
        return JSON.stringify(state);
      } catch (e) {
        return value;
      }
    },
    setItem: base.setItem,
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
      },
      React.createElement(GraphiQL.Logo, null, config.title),
    ),
  );
})();
`;
