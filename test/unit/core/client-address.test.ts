/** The client's address through trusted proxies, and the key per-address caps count it under (IPv6 by /64). */
import { addressKey, clientAddressOf } from '../../../src/core/client-address';

const none = { trustProxyHops: 0, header: null };

describe('clientAddressOf', () => {
  it.each([
    ['no proxy trusted: the socket, whatever X-Forwarded-For claims', '10.0.0.9', { 'x-forwarded-for': '1.2.3.4' }, none, '10.0.0.9'],
    ['one hop: the address the proxy saw, not what the client wrote before it', '10.0.0.9', { 'x-forwarded-for': '6.6.6.6, 1.2.3.4' }, { trustProxyHops: 1, header: null }, '1.2.3.4'],
    ['two hops: the second from the right', '10.0.0.9', { 'x-forwarded-for': '6.6.6.6, 1.2.3.4, 10.0.0.8' }, { trustProxyHops: 2, header: null }, '1.2.3.4'],
    ['repeated headers are one list', '10.0.0.9', { 'x-forwarded-for': ['6.6.6.6', '1.2.3.4'] }, { trustProxyHops: 1, header: null }, '1.2.3.4'],
    ['fewer entries than hops: the leftmost (still a proxy\'s word)', '10.0.0.9', { 'x-forwarded-for': '1.2.3.4' }, { trustProxyHops: 3, header: null }, '1.2.3.4'],
    ['no header behind a trusted proxy: the socket', '10.0.0.9', {}, { trustProxyHops: 1, header: null }, '10.0.0.9'],
    ['a trusted header wins', '10.0.0.9', { 'x-real-ip': '1.2.3.4', 'x-forwarded-for': '5.5.5.5' }, { trustProxyHops: 1, header: 'x-real-ip' }, '1.2.3.4'],
    ['IPv4-mapped socket address', '::ffff:127.0.0.1', {}, none, '127.0.0.1'],
    ['bracketed IPv6 with a port', '10.0.0.9', { 'x-forwarded-for': '[2001:DB8::1]:443' }, { trustProxyHops: 1, header: null }, '2001:db8::1'],
    ['IPv4 with a port', '10.0.0.9', { 'x-forwarded-for': '1.2.3.4:5678' }, { trustProxyHops: 1, header: null }, '1.2.3.4'],
  ])('%s', (_why, socket, headers, settings, expected) => {
    expect(clientAddressOf(socket, headers, settings)).toBe(expected);
  });
});

describe('addressKey', () => {
  it.each([
    ['1.2.3.4', 'address:1.2.3.4'],
    ['2001:db8::1', 'address:2001:db8:0:0::/64'],
    ['2001:db8:0:0:ffff:ffff:ffff:ffff', 'address:2001:db8:0:0::/64'],
    ['2001:db8:0:1::1', 'address:2001:db8:0:1::/64'],
    ['::1', 'address:0:0:0:0::/64'],
    ['fe80::1:2:3:4', 'address:fe80:0:0:0::/64'],
  ])('%s → %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('groups every address of one /64 and tells /64s apart', () => {
    expect(addressKey('2001:db8:aa:bb:1::')).toBe(addressKey('2001:db8:aa:bb::9'));
    expect(addressKey('2001:db8:aa:bb::1')).not.toBe(addressKey('2001:db8:aa:bc::1'));
    expect(addressKey(undefined)).toBe('address:unknown');
  });
});
