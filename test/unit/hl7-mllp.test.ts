/**
 * ACKs built and read (server/src/hl7/ack.ts) and HL7 over MLLP (server/src/hl7/mllp.ts) against
 * real listeners in the test process: AA, AE then AA, an ACK for another message first, a peer that
 * never answers, one that hangs up, one that cannot be reached. Every message the tests produce is
 * parsed and checked by the independent hl7v2 library.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Hl7Message } from '@medplum/core';
import { Hl7Connection, type Hl7MessageEvent } from '@medplum/hl7';
import { CovidPcrResult, TestName } from '@platform/domain';
import {
  buildAck, buildResultOru, Hl7ErrorCode, Hl7InvalidAck, Hl7NoAnswer, readAck, sendOverMllp, startMllpListener,
  type AckAnswer, type MllpListener, type ResultOruInput,
} from '../../server/src/hl7';
import { expectValidHl7 } from '../support/hl7-validator';

function oru(controlId: string): Hl7Message {
  const input: ResultOruInput = {
    controlId,
    lab: { application: 'PLATFORM-LIS', name: 'Example Genomics Lab', cliaNumber: '05D2187035', address: { street: '10 Science Park Rd', city: 'San Diego', state: 'CA', postalCode: '92121' } },
    receiver: { application: 'EPIC', facility: 'NORTH CLINIC' },
    patient: { identifiers: [{ value: '42', assigningAuthority: { namespaceId: 'PLATFORM-LIS' }, typeCode: 'PI' }], name: { familyName: 'Test', givenName: 'Patient' }, dateOfBirth: '1980-01-01', sex: 'U', address: null },
    order: {
      placerOrderNumber: '7', fillerOrderNumber: 'CV00000007', testName: TestName.CovidPcr, orderingProvider: { familyName: 'House', givenName: 'Greg', npi: '1234567893' },
      collectedAt: new Date('2026-11-20T08:00:00Z'), receivedAt: new Date('2026-11-21T08:00:00Z'), resultAt: new Date('2026-11-22T08:00:00Z'),
    },
    resultStatus: 'F',
    values: [{ testName: TestName.CovidPcr, value: CovidPcrResult.NotDetected }],
    reportPdf: Buffer.from('%PDF-1.4\n%%EOF\n'),
  };
  const message = buildResultOru(input);
  expectValidHl7(message.toString());
  return message;
}

/** Every ACK the listeners send, checked by hl7v2 at the end of each test. */
const sentAcks: string[] = [];
function answerWith(received: Hl7Message, answer: AckAnswer): Hl7Message {
  const ack = buildAck(received, answer);
  sentAcks.push(ack.toString());
  return ack;
}

const rejected = async (p: Promise<unknown>): Promise<unknown> => p.then(() => expect.fail('expected a rejection'), (err: unknown) => err);

/** A port nothing listens on: one the system gave a server that is closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A raw MLLP peer on @medplum/hl7's Hl7Connection, for behaviours our listener does not offer. */
async function rawPeer(onMessage: (connection: Hl7Connection, message: Hl7Message) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const connections = new Set<Hl7Connection>();
  const server = net.createServer((socket) => {
    const connection = new Hl7Connection(socket);
    connections.add(connection);
    connection.addEventListener('message', (event: Hl7MessageEvent) => onMessage(connection, event.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...connections].map((c) => c.close()));
      await closed;
    },
  };
}

describe('HL7 ACKs (server/src/hl7/ack.ts)', () => {
  const received = oru('ORU-100');

  it('AA: the sender and receiver swapped, ACK^R01^ACK, MSA naming the message; hl7v2 reads it', () => {
    const text = buildAck(received, { code: 'AA' }, { controlId: 'ACK-1', createdAt: new Date('2026-11-22T08:00:01.999Z') }).toString();
    const parsed = expectValidHl7(text);
    const ack = Hl7Message.parse(text);
    const msh = ack.getSegment('MSH')!;
    expect(['3', '4', '5', '6', '7', '9', '10', '11', '12'].map((n) => msh.getField(Number(n)).toString())).to.deep.equal([
      'EPIC', 'NORTH CLINIC', 'PLATFORM-LIS', 'Example Genomics Lab^05D2187035^CLIA', '20261122080001+0000', 'ACK^R01^ACK', 'ACK-1', 'P', '2.5.1',
    ]);
    expect(ack.getSegment('MSA')!.toString()).to.equal('MSA|AA|ORU-100');
    expect(parsed.getSegment('MSA')!.field(2).getValue()).to.equal('ORU-100');
    expect(readAck(ack)).to.deep.equal({ code: 'AA', text: '', controlId: 'ORU-100', errors: [] });
  });

  it('AE: an ERR naming the field (ERR-2), the HL7 error (ERR-3), severity E and the reason (ERR-8); read back', () => {
    const reason = 'PID-3: no patient identifier | none given';
    const ack = buildAck(received, { code: 'AE', error: { location: { segment: 'PID', field: 3 }, hl7Error: Hl7ErrorCode.RequiredFieldMissing, reason } });
    const text = ack.toString();
    expectValidHl7(text);
    const err = Hl7Message.parse(text).getSegment('ERR')!;
    expect(err.getField(2).toString()).to.equal('PID^1^3');
    expect(err.getField(3).toString()).to.equal('101^Required field missing^HL70357');
    expect(err.getField(4).toString()).to.equal('E');
    expect(err.getField(8).toString()).to.equal('PID-3: no patient identifier \\F\\ none given');
    expect(readAck(Hl7Message.parse(text))).to.deep.equal({
      code: 'AE', text: reason, controlId: 'ORU-100', errors: [{ location: 'PID-3', code: '101', text: reason }],
    });
  });

  it('AR naming a component, with a reason longer than MSA-3 allows (kept whole in ERR-8)', () => {
    const reason = `The ordered test is not one the clinical portal may order: ${'x'.repeat(60)}`;
    const ack = buildAck(received, { code: 'AR', error: { location: { segment: 'OBR', sequence: 1, field: 4, component: 1 }, hl7Error: Hl7ErrorCode.TableValueNotFound, reason } });
    expectValidHl7(ack.toString());
    const read = readAck(Hl7Message.parse(ack.toString()));
    expect(read.code).to.equal('AR');
    expect(read.text).to.have.length(80);
    expect(read.errors).to.deep.equal([{ location: 'OBR-4.1', code: '103', text: reason }]);
  });

  it('refuses to read a message that is no ACK', () => {
    expect(() => readAck(received)).to.throw(Hl7InvalidAck);
    const badCode = Hl7Message.parse('MSH|^~\\&|A|B|C|D|20261122080000+0000||ACK|1|P|2.5.1\rMSA|OK|ORU-100');
    expect(() => readAck(badCode)).to.throw(Hl7InvalidAck, /MSA-1/);
  });
});

describe('HL7 over MLLP (server/src/hl7/mllp.ts)', function () {
  this.timeout(10_000);
  const cleanups: (() => Promise<void>)[] = [];
  const listen = async (onMessage: Parameters<typeof startMllpListener>[0]['onMessage']): Promise<MllpListener> => {
    const listener = await startMllpListener({ port: 0, onMessage });
    cleanups.push(() => listener.close());
    return listener;
  };

  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((close) => close()));
    for (const text of sentAcks.splice(0)) expectValidHl7(text);
  });

  it('sends an ORU to a listener that answers AA: the ACK names the message, the listener got it whole', async () => {
    const got: string[] = [];
    const listener = await listen((m) => {
      got.push(m.toString());
      return answerWith(m, { code: 'AA' });
    });
    expect(listener.port).to.be.above(0);
    const message = oru('ORU-200');
    const ack = await sendOverMllp({ host: '127.0.0.1', port: listener.port, message, timeoutMs: 5000 });
    expect(ack).to.deep.equal({ code: 'AA', text: '', controlId: 'ORU-200', errors: [] });
    expect(got).to.deep.equal([message.toString()]);
  });

  it('answers AE first, then AA when the same message is sent again', async () => {
    let calls = 0;
    const listener = await listen((m) => (++calls === 1
      ? answerWith(m, { code: 'AE', error: { location: { segment: 'PID', field: 3 }, hl7Error: Hl7ErrorCode.UnknownKeyIdentifier, reason: 'Unknown patient' } })
      : answerWith(m, { code: 'AA' })));
    const message = oru('ORU-300');
    const first = await sendOverMllp({ host: '127.0.0.1', port: listener.port, message, timeoutMs: 5000 });
    expect(first).to.deep.equal({ code: 'AE', text: 'Unknown patient', controlId: 'ORU-300', errors: [{ location: 'PID-3', code: '204', text: 'Unknown patient' }] });
    const second = await sendOverMllp({ host: '127.0.0.1', port: listener.port, message, timeoutMs: 5000 });
    expect(second.code).to.equal('AA');
    expect(calls).to.equal(2);
  });

  it('an ACK for another message is no answer: only the one whose MSA-2 is its control id counts', async () => {
    // One frame only: @medplum/hl7 4.5.2 reads two MLLP frames that arrive in one TCP chunk as one message.
    const peer = await rawPeer((connection, m) => {
      const other = Hl7Message.parse(m.toString().replace('|ORU-400|', '|ORU-OTHER|'));
      connection.send(answerWith(other, { code: 'AA' }));
    });
    cleanups.push(peer.close);
    const err = await rejected(sendOverMllp({ host: '127.0.0.1', port: peer.port, message: oru('ORU-400'), timeoutMs: 300 }));
    expect(err).to.be.instanceOf(Hl7NoAnswer);
    expect((err as Hl7NoAnswer).reason).to.equal('timeout');
  });

  it('a listener that never answers: Hl7NoAnswer (timeout) within the time allowed', async () => {
    let received = 0;
    const listener = await listen(() => {
      received++;
      return null;
    });
    const started = Date.now();
    const err = await rejected(sendOverMllp({ host: '127.0.0.1', port: listener.port, message: oru('ORU-500'), timeoutMs: 300 }));
    expect(err).to.be.instanceOf(Hl7NoAnswer);
    expect((err as Hl7NoAnswer).reason).to.equal('timeout');
    expect((err as Hl7NoAnswer).controlId).to.equal('ORU-500');
    expect(Date.now() - started).to.be.within(250, 3000);
    expect(received).to.equal(1);
  });

  it('a peer that hangs up without answering: Hl7NoAnswer (closed), without waiting for the deadline', async () => {
    const peer = await rawPeer((connection) => {
      connection.socket.destroy();
    });
    cleanups.push(peer.close);
    const started = Date.now();
    const err = await rejected(sendOverMllp({ host: '127.0.0.1', port: peer.port, message: oru('ORU-600'), timeoutMs: 5000 }));
    expect(err).to.be.instanceOf(Hl7NoAnswer);
    expect((err as Hl7NoAnswer).reason).to.equal('closed');
    expect(Date.now() - started).to.be.below(4000);
  });

  it('nobody listening: Hl7NoAnswer (unreachable)', async () => {
    const port = await closedPort();
    const err = await rejected(sendOverMllp({ host: '127.0.0.1', port, message: oru('ORU-700'), timeoutMs: 2000 }));
    expect(err).to.be.instanceOf(Hl7NoAnswer);
    expect((err as Hl7NoAnswer).reason).to.equal('unreachable');
  });

  it('a handler that fails answers AE 207 without its detail', async () => {
    const listener = await listen(() => {
      throw new Error('database down: patient Rivera');
    });
    const ack = await sendOverMllp({ host: '127.0.0.1', port: listener.port, message: oru('ORU-800'), timeoutMs: 5000 });
    expect(ack.code).to.equal('AE');
    expect(ack.errors).to.deep.equal([{ location: null, code: '207', text: 'The message could not be processed.' }]);
    expect(JSON.stringify(ack)).not.to.contain('Rivera');
  });

  it('close() ends the listener and its open connections; the port is free again', async () => {
    let arrived = () => {};
    const got = new Promise<void>((resolve) => { arrived = resolve; });
    const listener = await startMllpListener({ port: 0, onMessage: () => { arrived(); return null; } });
    const pending = rejected(sendOverMllp({ host: '127.0.0.1', port: listener.port, message: oru('ORU-900'), timeoutMs: 5000 }));
    await got;
    await listener.close();
    const err = await pending;
    expect(err).to.be.instanceOf(Hl7NoAnswer);
    expect((err as Hl7NoAnswer).reason).to.equal('closed');
    const again = await startMllpListener({ port: listener.port, onMessage: () => null });
    await again.close();
  });

  it('fails to listen on a port in use instead of retrying', async () => {
    const first = await listen(() => null);
    const err = await rejected(startMllpListener({ port: first.port, onMessage: () => null }));
    expect((err as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
  });
});
