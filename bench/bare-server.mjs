// Baseline: a bare node:http server answering one precomputed body (passed in base64).
import http from 'node:http';

const body = Buffer.from(process.argv[2] ?? '', 'base64');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
