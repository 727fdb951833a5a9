// Baseline for the Agent SDK bench: a bare ws server that sends every text message back as it
// came (no parsing, no pacing). Prints READY <port>.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const server = http.createServer((_, res) => res.writeHead(426).end());
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
process.on('SIGTERM', () => {
  for (const ws of wss.clients) ws.terminate();
  server.close(() => process.exit(0));
});
