/**
 * The ceiling: a bare node:http server answering a small JSON body, with nothing else in the
 * request path. Every Signpost figure is reported as a fraction of what this one does.
 */
import http from 'node:http';

const body = JSON.stringify({ ok: true, message: 'hello from the ceiling', version: 1 });
const length = Buffer.byteLength(body);

const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
