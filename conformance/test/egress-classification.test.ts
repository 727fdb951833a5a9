// The kit's own range table for the strict-egress property (conformance/properties/egress.ts),
// checked against addresses whose class the IANA special-purpose registries fix.
import { describe, expect, it } from 'vitest';
import { blockedByKit } from '../properties/egress.ts';

describe('the kit\'s egress classification', () => {
  it('blocks loopback, private, link-local, CGNAT, multicast, mapped and unique-local addresses', () => {
    for (const a of ['127.0.0.1', '10.255.255.255', '172.16.0.0', '172.31.255.255', '192.168.10.1', '169.254.169.254', '100.64.0.0', '100.127.255.255', '0.1.2.3', '224.0.0.251', '255.255.255.255', '::1', '::', '::ffff:8.8.8.8', '0:0:0:0:0:ffff:a00:1', 'fd00::1', 'fe80::1:2', 'ff02::1']) {
      expect(blockedByKit(a), a).toBe(true);
    }
  });
  it('lets public unicast through, next to the blocked ranges too', () => {
    for (const a of ['8.8.8.8', '172.32.0.0', '172.15.255.255', '100.128.0.0', '100.63.255.255', '169.255.0.1', '11.0.0.0', '223.255.255.255', '2606:4700::1111', '2a00:1450:4001::1']) {
      expect(blockedByKit(a), a).toBe(false);
    }
  });
});
