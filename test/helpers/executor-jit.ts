// jest project `jit` (jest.config.js): gateways started by the test kit execute with graphql-jit.
process.env['NETGRAPH_EXECUTOR'] = 'jit';
