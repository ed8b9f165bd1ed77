/**
 * A shared poller's value as it crosses Redis: sealed under the fleet key with its order (opens
 * only for the same target, holds no clear text, and an altered one does not open), or without a
 * key no value at all: the listener reads the target itself. And the fleet key printed in the
 * deployment example is refused.
 */
import { randomBytes } from 'node:crypto';
import { Fields } from '../../../src/core/parse';
import { pollValueCodec } from '../../../src/state/redis/poll-values';
import { configError } from '../../helpers/config-error';

const endpoint = { id: 'e1', name: 'laptop', registrationKey: 'REGKEY-123', status: 300, nested: [{ jwt: 'eyJ.secret.sig', kept: 1 }], password: null };
const message = (packed: Record<string, unknown>): Fields => Fields.of(JSON.parse(JSON.stringify({ type: 'value', ...packed })), 'Message');

describe('poller values in Redis', () => {
  it('seals a value and its order under the fleet key: no clear text, opens for its own target only', () => {
    const codec = pollValueCodec(randomBytes(32));
    const packed = codec.pack(endpoint, 'netgraph:poll:resourceStatus:e1#fp', 7);
    const text = JSON.stringify(packed);
    expect(text).not.toContain('REGKEY-123');
    expect(text).not.toContain('laptop');
    expect(codec.unpack(message(packed), 'netgraph:poll:resourceStatus:e1#fp')).toEqual({ json: endpoint, at: 7 });
    expect(codec.unpack(message(packed), 'netgraph:poll:resourceStatus:e2#fp')).toBeNull();
    expect(pollValueCodec(randomBytes(32)).unpack(message(packed), 'netgraph:poll:resourceStatus:e1#fp')).toBeNull();
  });

  it('does not open a sealed value someone altered in Redis, nor a readable one written beside it', () => {
    const codec = pollValueCodec(randomBytes(32));
    const sealed = String(codec.pack({ id: 'n1', status: 300 }, 'place', 1)['sealed']);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64');
    body[0] = (body[0] ?? 0) ^ 1;
    const altered = [...parts.slice(0, 3), body.toString('base64')].join('.');
    expect(codec.unpack(message({ sealed: altered }), 'place')).toBeNull();
    expect(codec.unpack(message({ value: { id: 'n1', status: 900 } }), 'place')).toBeNull();
  });

  it('without a key, puts no field of a value in Redis: the listener reads the target itself', () => {
    const codec = pollValueCodec(null);
    const packed = codec.pack(endpoint, 'place', 1);
    expect(packed).toEqual({});
    expect(codec.unpack(message(packed), 'place')).toBeNull();
    expect(codec.unpack(message({ value: { id: 'n1', status: 300 } }), 'place')).toBeNull();
  });
});

describe('FLEET_TOKEN_KEY', () => {
  it("refuses the deployment example's key in one line, without echoing it", () => {
    const example = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
    const message = configError({ FLEET_TOKEN_KEY: example });
    expect(message).toMatch(/^FLEET_TOKEN_KEY is the example key/);
    expect(message).not.toContain(example);
    expect(message).not.toContain('\n');
    expect(configError({ FLEET_TOKEN_KEY: Buffer.from(example, 'hex').toString('base64') })).toMatch(/^FLEET_TOKEN_KEY is the example key/);
  });
});
