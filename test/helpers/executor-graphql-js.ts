// jest project `graphql-js` (jest.config.js): gateways started by the test kit execute with graphql-js.
process.env['NETGRAPH_EXECUTOR'] = 'graphql-js';
