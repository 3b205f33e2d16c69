// Starts verdaccio on 127.0.0.1 on a port the kernel picks, with the config
// given as argv[2] (offline: no uplinks), and prints its URL as one JSON line.
// Runs as its own process, stopped by the test's SIGTERM or when the test's end of stdin closes.
import { runServer } from "verdaccio";

const config = process.argv[2];
if (!config) {
  console.error("usage: node serve.mjs CONFIG.yaml");
  process.exit(2);
}
const app = await runServer(config);
const server = app.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}/` }) + "\n");
});
// Nothing to flush: storage is written per request, and open keep-alive sockets would only delay a close.
process.on("SIGTERM", () => process.exit(0));
// The test holds our stdin open: when it ends (the test process exited, even by a crash), so do we.
process.stdin.on("end", () => process.exit(0)).resume();
