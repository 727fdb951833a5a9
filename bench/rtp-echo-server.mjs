// Baseline for the SIP media bench: a bare UDP server that sends every datagram back as it came
// (no parsing), the work a media relay does at the least. Over stdin, `cpu` prints
// `CPU <microseconds>` (process.cpuUsage, user + system). Prints READY <port>.
import dgram from 'node:dgram';
import { createInterface } from 'node:readline';

const socket = dgram.createSocket('udp4');
socket.on('message', (msg, rinfo) => socket.send(msg, rinfo.port, rinfo.address));
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'cpu') {
    const u = process.cpuUsage();
    process.stdout.write(`CPU ${u.user + u.system}\n`);
  }
});
socket.bind(0, '127.0.0.1', () => {
  socket.setRecvBufferSize(4 * 1024 * 1024); // as the simulator's RTP socket (the kernel may cap it)
  process.stdout.write(`READY ${socket.address().port}\n`);
});
process.on('SIGTERM', () => socket.close(() => process.exit(0)));
