// Starts verdaccio on 127.0.0.1 on a port the kernel picks, with the config
// given as argv[2] (offline: no uplinks), and prints its URL as one JSON line.
// Runs as its own process so a test can stop it by pid when it is done.
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
process.on("SIGTERM", () => server.close(() => process.exit(0)));
