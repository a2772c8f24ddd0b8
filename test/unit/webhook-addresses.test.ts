/** A webhook in production goes to the internet only: the lab's own networks are refused (server-side request forgery). */
import { expect } from 'chai';
import { isPublicAddress, privateDestination } from '../../server/src/webhooks/public-address';

describe('webhook destinations (server/src/webhooks/public-address.ts)', () => {
  it('refuses loopback, private, link-local, carrier-grade and reserved addresses, IPv4 and IPv6, mapped or not', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.9', '172.31.255.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPublicAddress(a), a).to.equal(false);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(a), a).to.equal(true);
    }
    expect(isPublicAddress('not-an-address')).to.equal(false);
  });

  it('names why a URL is not called: a private address literal or a name that resolves to one', async () => {
    expect(await privateDestination('http://169.254.169.254/latest/meta-data')).to.equal("The webhook's host 169.254.169.254 is a private address (169.254.169.254): not called");
    expect(await privateDestination('https://[::1]:8443/hooks')).to.match(/private address \(::1\)/);
    expect(await privateDestination('http://localhost:6379/')).to.match(/^The webhook's host localhost is a private address/);
    expect(await privateDestination('https://93.184.216.34/hooks')).to.equal(null);
  });
});
