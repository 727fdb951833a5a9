// Baseline for the SIP bench: a bare UDP server that sends every datagram back as it came (no
// parsing). Prints READY <port>.
import dgram from 'node:dgram';

const socket = dgram.createSocket('udp4');
socket.on('message', (msg, rinfo) => socket.send(msg, rinfo.port, rinfo.address));
socket.bind(0, '127.0.0.1', () => process.stdout.write(`READY ${socket.address().port}\n`));
process.on('SIGTERM', () => socket.close(() => process.exit(0)));
