// A connection flood in its own process (its own descriptors): opens `count` TCP connections to
// host:port from `from` (a loopback address of its own, 127.0.0.2 and up) and sends nothing on
// them: half-open HTTP requests, held until this process is told to stop (SIGTERM).
// Prints one JSON line a second: { opened, open, refused, closedByServer, errors }.
//
//   node connection-flood.mjs <host> <port> <count> <from>
import { connect } from 'node:net';

const [host, portText, countText, from] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const stats = { opened: 0, open: 0, refused: 0, closedByServer: 0, errors: {}, done: false };
const sockets = new Set();

function openOne() {
  return new Promise((resolve) => {
    const socket = connect({ host, port, localAddress: from });
    let connected = false;
    socket.setNoDelay(true);
    socket.once('connect', () => {
      connected = true;
      stats.opened++;
      stats.open++;
      sockets.add(socket);
      resolve();
    });
    socket.on('error', (error) => {
      stats.errors[error.code] = (stats.errors[error.code] ?? 0) + 1;
      if (!connected) {
        stats.refused++;
        resolve();
      }
    });
    socket.on('close', () => {
      if (!connected) return;
      sockets.delete(socket);
      stats.open--;
      if (!stopping) stats.closedByServer++;
    });
    // Reading what a server answers (a 408 after its header timeout) keeps its side closing cleanly.
    socket.on('data', () => {});
  });
}

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  for (const s of sockets) s.destroy();
  process.stdout.write(`${JSON.stringify(stats)}\n`, () => process.exit(0));
});
const report = setInterval(() => process.stdout.write(`${JSON.stringify(stats)}\n`), 1_000);
report.unref();

// 200 at a time: a flood, without the flood's own descriptor churn dominating.
for (let started = 0; started < count && !stopping; started += 200) {
  await Promise.all(Array.from({ length: Math.min(200, count - started) }, openOne));
}
stats.done = true;
process.stdout.write(`${JSON.stringify(stats)}\n`);
setInterval(() => {}, 60_000);
