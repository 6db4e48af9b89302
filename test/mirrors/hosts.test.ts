import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HostSet, parseHostsFile, splitUrl } from '../../src/mirrors/host-set.js';
import { formatIp, hostLiteralIp, parseIp, subnetKey } from '../../src/mirrors/ip.js';

test('IPv4: strict dotted quads only', () => {
  assert.equal(parseIp('209.1.28.62'), { version: 4, parts: [209, 1, 28, 62] });
  for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4.5', '1..2.3', 'a.b.c.d', '', '1.2.3.4/24']) assert.is(parseIp(bad), undefined, bad);
});

test('IPv6: compression, embedded IPv4, brackets, zones; IPv4-mapped reads as IPv4', () => {
  assert.equal(parseIp('2001:db8::1')?.parts, [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIp('[2001:DB8:0:0:1::]')?.parts, [0x2001, 0xdb8, 0, 0, 1, 0, 0, 0]);
  assert.equal(parseIp('::')?.parts, [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(parseIp('fe80::1%eth0')?.parts, [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIp('64:ff9b::192.0.2.33')?.parts, [0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
  assert.equal(parseIp('::ffff:10.1.2.3'), { version: 4, parts: [10, 1, 2, 3] });
  for (const bad of ['2001:db8::1::2', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '1:2:3:4:5:6:7', '::1.2.3']) assert.is(parseIp(bad), undefined, bad);
  assert.is(formatIp(parseIp('2001:db8::1')!), '2001:0db8:0000:0000:0000:0000:0000:0001');
});

test('IP3 keys: first three octets, or the /64 of an IPv6 address', () => {
  assert.is(subnetKey(parseIp('209.1.28.62')!), '209.1.28');
  assert.is(subnetKey(parseIp('2001:db8:1:2:aaaa::1')!), '2001:0db8:0001:0002::/64');
  assert.is(subnetKey(parseIp('2001:db8:1:2:bbbb::9')!), subnetKey(parseIp('2001:db8:1:2::1')!));
  assert.is.not(subnetKey(parseIp('2001:db8:1:3::1')!), subnetKey(parseIp('2001:db8:1:2::1')!));
});

test('hosts written as IP literals carry their own address', () => {
  assert.equal(hostLiteralIp('10.0.0.7:8080')?.parts, [10, 0, 0, 7]);
  assert.equal(hostLiteralIp('[2001:db8::5]:81')?.parts, [0x2001, 0xdb8, 0, 0, 0, 0, 0, 5]);
  assert.is(hostLiteralIp('www.example.com'), undefined);
  const hosts = HostSet.fromUrls(['http://10.0.0.7/a', 'http://10.0.0.7/b', 'http://[2001:db8::5]/x'], { minUrls: 1 });
  assert.equal(hosts.ips[hosts.id('10.0.0.7')].map(formatIp), ['10.0.0.7']);
  assert.equal(hosts.ips[hosts.id('[2001:db8::5]')].map(formatIp), ['2001:0db8:0000:0000:0000:0000:0000:0005']);
});

test('splitUrl: host with port, path without the leading slash, query kept, fragment dropped', () => {
  assert.equal(splitUrl('HTTP://WWW.Example.COM:8080/a/b.html?q=1#top'), { scheme: 'http', host: 'www.example.com:8080', path: 'a/b.html?q=1' });
  assert.equal(splitUrl('https://example.com'), { scheme: 'https', host: 'example.com', path: '' });
  assert.equal(splitUrl('http://example.com./x'), { scheme: 'http', host: 'example.com', path: 'x' });
  assert.is(splitUrl('mailto:someone@example.com'), undefined);
  assert.is(splitUrl('not a url'), undefined);
  assert.is(splitUrl('/relative/path'), undefined);
});

test('HostSet: unparsable URLs reported with their line and skipped; small hosts dropped; hosts sorted', () => {
  const urls = ['http://b.org/1', 'http://b.org/2', 'garbage', 'http://a.org/1', 'http://a.org/1#x', 'http://a.org/2', 'http://c.org/only', 'ftp://b.org/3'];
  const hosts = HostSet.fromUrls(urls, { minUrls: 2, source: 'list.txt' });
  assert.equal(hosts.hosts, ['a.org', 'b.org']);
  assert.equal(hosts.paths[1], ['1', '2', '3']);
  assert.equal([...hosts.urlCount], [2, 3]);
  assert.is(hosts.droppedHosts, 1);
  assert.equal(hosts.errors.map((e) => [e.source, e.location]), [['list.txt', 'line 3']]);
  assert.is(hosts.url(1, 'x/y'), 'http://b.org/x/y');
  assert.is(hosts.id('B.ORG'), 1);
  assert.is(hosts.id('nowhere.org'), -1);
  assert.throws(() => HostSet.fromUrls(urls, { minUrls: 0 }), /expected integer 1\.\.\d+ for minUrls, got 0/);
  assert.throws(() => HostSet.fromUrls(urls, { minimum: 2 } as never), /unknown option "minimum"/);
});

test('HostSet IPs: malformed addresses reported and skipped, duplicates merged, lookup without the port', () => {
  const ips = new Map([['a.org', ['10.0.0.1', '10.0.0.1', '999.1.1.1']], ['b.org', ['2001:db8::1']]]);
  const hosts = HostSet.fromUrls(['http://a.org/', 'http://b.org:8080/'], { minUrls: 1, ips });
  assert.equal(hosts.ips[0].map(formatIp), ['10.0.0.1']);
  assert.equal(hosts.ips[1].map(formatIp), ['2001:0db8:0000:0000:0000:0000:0000:0001']);
  assert.is(hosts.errors.length, 1);
  assert.match(hosts.errors[0].message, 'malformed IP address "999.1.1.1"');
});

test('hosts files: "host ip…" and /etc/hosts "ip host…" lines, bad lines reported with their number', () => {
  const text = [
    '# a comment',
    'www.a.org 10.0.0.1 10.0.0.2',
    '10.0.0.9\tb.org www.b.org   # aliases',
    'c.org, 2001:db8::7',
    'd.org 300.1.2.3',
    'e.org',
    '',
    'f.org 10.0.0.1',
  ].join('\n');
  const f = parseHostsFile(text, 'hosts.txt');
  assert.equal([...f.ips.entries()], [
    ['www.a.org', ['10.0.0.1', '10.0.0.2']],
    ['b.org', ['10.0.0.9']],
    ['www.b.org', ['10.0.0.9']],
    ['c.org', ['2001:db8::7']],
    ['f.org', ['10.0.0.1']],
  ]);
  assert.equal(f.errors.map((e) => e.location), ['line 5', 'line 6']);
  assert.match(f.errors[0].message, '300.1.2.3');
});

test.run();
