/** Event search's top-talker request (sources by bytes sent, each with its addresses by bytes received), shared by the search tests. */
export const TOP_TALKERS = {
  size: 0,
  query: { bool: { filter: [{ range: { '@timestamp': { format: 'strict_date_optional_time', gte: 'now-24h', lte: 'now' } } }] } },
  aggs: {
    zfw_source: {
      terms: { field: 'zfw.source_id.keyword', order: { circuit_tx: 'desc' }, size: 10 },
      aggs: {
        circuit_tx: { sum: { field: 'zfw.usage.circuit.tx' } },
        saddr: {
          terms: { field: 'zfw.saddr.keyword', order: { circuit_rx: 'desc' }, size: 10 },
          aggs: { circuit_rx: { sum: { field: 'zfw.usage.circuit.rx' } } },
        },
      },
    },
  },
};
