/** Mutation inputs checked before any call: field rules, exclusive pairs, update merges, CSV. */
import { BadInputError, GatewayError } from '../../../src/errors/codes';
import { createBody, inputSpecs, memberIds, updateBody } from '../../../src/resolvers/network/change-input';
import { checkCsv, parseCsv } from '../../../src/resolvers/network/csv-input';

function fieldOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof BadInputError || error instanceof GatewayError) return `${error.field ?? ''}: ${error.message}`;
    throw error;
  }
  throw new Error('expected the input to be refused');
}

describe('createBody', () => {
  const service = { name: 's', serviceClass: 'CS', networkIp: '10.0.0.1', endpointId: 'e' };
  it('copies the given fields and merges attributes', () => {
    expect(createBody({ ...service, attributes: { cryptoLevel: 'STRONG' } }, inputSpecs.service)).toEqual({ ...service, cryptoLevel: 'STRONG' });
  });
  it.each([
    [{ ...service, name: ' ' }, 'input.name'],
    [{ ...service, networkIp: '10.0.0.256' }, 'input.networkIp'],
    [{ ...service, networkFirstPort: 70000 }, 'input.networkFirstPort'],
    [{ ...service, networkFirstPort: 90, networkLastPort: 80 }, 'input.networkFirstPort'],
    [{ ...service, gatewayClusterId: 'g' }, 'input.endpointId'],
    [{ ...service, endpointId: undefined }, 'input.endpointId'],
    [{ ...service, attributes: { name: 'x' } }, 'input.attributes.name'],
    [{ ...service, attributes: { _links: {} } }, 'input.attributes._links'],
  ])('refuses %j naming %s', (input, field) => {
    expect(fieldOf(() => createBody(input, inputSpecs.service))).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}: `));
  });
});

describe('updateBody', () => {
  const current = { id: 'x', name: 'old', endpointType: 'ZTCL', geoRegionId: 'r', updatedAt: '2024-03-01T09:00:00.000+0000' };
  it('keeps what the input leaves out and clears what it sets to null', () => {
    expect(updateBody({ name: 'new', geoRegionId: null }, inputSpecs.endpoint).apply(current)).toEqual({ ...current, name: 'new', geoRegionId: null });
  });
  it('refuses to clear a required field before any call', () => {
    expect(fieldOf(() => updateBody({ name: null }, inputSpecs.endpoint))).toMatch(/^input.name: /);
  });
  it('accepts expectedUpdatedAt equal to the record in any offset form, CONFLICT otherwise', () => {
    expect(updateBody({ name: 'n', expectedUpdatedAt: '2024-03-01T09:00:00Z' }, inputSpecs.endpoint).apply(current).name).toBe('n');
    const stale = updateBody({ name: 'n', expectedUpdatedAt: '2024-03-01T08:00:00Z' }, inputSpecs.endpoint);
    expect(() => stale.apply(current)).toThrow(GatewayError);
  });
  it('setting one terminator clears the other; both at once is refused', () => {
    expect(updateBody({ gatewayClusterId: 'g' }, inputSpecs.service).apply({ id: 's', endpointId: 'e' })).toMatchObject({ gatewayClusterId: 'g', endpointId: null });
    expect(fieldOf(() => updateBody({ gatewayClusterId: 'g', endpointId: 'e' }, inputSpecs.service))).toMatch(/^input.endpointId: /);
  });
});

describe('memberIds', () => {
  it('needs at least one id and no repeats', () => {
    expect(memberIds(['a', 'b'])).toEqual(['a', 'b']);
    expect(fieldOf(() => memberIds([]))).toMatch(/^input.ids: /);
    expect(fieldOf(() => memberIds(['a', 'A']))).toMatch(/^input.ids\[1\]: /);
  });
});

describe('CSV uploads', () => {
  it('parses quoted values, doubled quotes, CRLF and a missing final newline', () => {
    expect(parseCsv('NAME,NOTE\r\n"a, b","say ""hi"""\r\nc,d')).toEqual([['NAME', 'NOTE'], ['a, b', 'say "hi"'], ['c', 'd']]);
  });
  it('counts the rows of a good file (headings in any case, blank lines skipped)', () => {
    expect(checkCsv('endpoint', 'name,EndpointType,GEOREGION\nlap-1,ZTCL,Europe West\n\nlap-2,GW,\n')).toBe(2);
    expect(checkCsv('service', 'NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nweb,CS,tcp,10.0.0.0/24,8000-8080,gw\n')).toBe(1);
  });
  it.each([
    ['endpoint', 'NAME,COLOUR\nx,red', /row 1, column 2: unknown heading "COLOUR"/],
    ['endpoint', 'NAME\nx', /row 1, column ENDPOINTTYPE: required heading missing/],
    ['endpoint', 'NAME,ENDPOINTTYPE\nx,ZTCL\n,GW', /row 3, column NAME: a value is required/],
    ['endpoint', 'NAME,ENDPOINTTYPE\nx,ZTCL\nX,GW', /row 3, column NAME: "X" repeats row 2/],
    ['endpoint', 'NAME,ENDPOINTTYPE\nx,ZTCL,extra', /row 2, column 3: more values than headings/],
    ['endpoint', 'NAME,ENDPOINTTYPE\n', /headings but no rows/],
    ['endpoint', 'NAME,ENDPOINTTYPE\n"x,ZTCL', /not closed/],
    ['service', 'NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nweb,CS,SCTP,10.0.0.1,80,gw', /row 2, column PROTOCOLSTRING/],
    ['service', 'NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nweb,CS,TCP,10.0.0.1,90-80,gw', /row 2, column PORTRANGE: "90-80" the range must not end before it starts/],
  ] as const)('%s: refuses %j', (kind, csv, message) => {
    expect(fieldOf(() => checkCsv(kind, csv))).toMatch(message);
  });
});
