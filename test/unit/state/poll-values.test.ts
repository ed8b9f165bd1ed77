/**
 * A shared poller's value as it crosses Redis: sealed under the fleet key (opens only for the same
 * target, and holds no clear text), or without a key stripped of its secret fields and marked so a
 * listener reads the target itself. And the fleet key printed in the deployment example is refused.
 */
import { randomBytes } from 'node:crypto';
import { Fields } from '../../../src/core/parse';
import { pollValueCodec, stripSecrets } from '../../../src/state/redis/poll-values';
import { configError } from '../../helpers/config-error';

const endpoint = { id: 'e1', name: 'laptop', registrationKey: 'REGKEY-123', status: 300, nested: [{ jwt: 'eyJ.secret.sig', kept: 1 }], password: null };
const message = (packed: Record<string, unknown>): Fields => Fields.of(JSON.parse(JSON.stringify({ type: 'value', ...packed })), 'Message');

describe('poller values in Redis', () => {
  it('strips secret fields wherever they are, keeping nulls and everything else', () => {
    expect(stripSecrets(endpoint)).toEqual({ json: { id: 'e1', name: 'laptop', status: 300, nested: [{ kept: 1 }], password: null }, stripped: true });
    expect(stripSecrets({ id: 'e2', registrationKey: null })).toEqual({ json: { id: 'e2', registrationKey: null }, stripped: false });
  });

  it('seals a value under the fleet key: no clear text, opens for its own target only', () => {
    const codec = pollValueCodec(randomBytes(32));
    const packed = codec.pack(endpoint, 'netgraph:poll:resourceStatus:e1#fp');
    const text = JSON.stringify(packed);
    expect(text).not.toContain('REGKEY-123');
    expect(text).not.toContain('laptop');
    expect(codec.unpack(message(packed), 'netgraph:poll:resourceStatus:e1#fp')).toEqual({ json: endpoint });
    expect(codec.unpack(message(packed), 'netgraph:poll:resourceStatus:e2#fp')).toBeNull();
    expect(pollValueCodec(randomBytes(32)).unpack(message(packed), 'netgraph:poll:resourceStatus:e1#fp')).toBeNull();
  });

  it('without a key, a value that lost a secret is marked partial: the listener reads the target itself', () => {
    const codec = pollValueCodec(null);
    const packed = codec.pack(endpoint, 'place');
    expect(JSON.stringify(packed)).not.toContain('REGKEY-123');
    expect(codec.unpack(message(packed), 'place')).toBeNull();
    const plain = codec.pack({ id: 'n1', status: 300 }, 'place');
    expect(codec.unpack(message(plain), 'place')).toEqual({ json: { id: 'n1', status: 300 } });
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
