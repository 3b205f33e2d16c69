// SHA-256 in hex with the runtime's own hasher: loading node:crypto costs Bun
// 10–90 ms (io/state-key.ts measured it), so Bun hashes with its global
// CryptoHasher and Node with node:crypto fetched on first use. Same hex on both.
import { createRequire } from "node:module";

interface Hasher {
  update(data: string | Uint8Array): Hasher;
  digest(encoding: "hex"): string;
}
const BunHasher = (globalThis as { Bun?: { CryptoHasher: new (algorithm: "sha256") => Hasher } }).Bun?.CryptoHasher;

function nodeCrypto(): typeof import("node:crypto") {
  return process.getBuiltinModule?.("node:crypto") ?? (createRequire(`${process.cwd()}/`)("node:crypto") as typeof import("node:crypto"));
}

export function sha256hex(data: string | Uint8Array): string {
  return BunHasher ? new BunHasher("sha256").update(data).digest("hex") : nodeCrypto().createHash("sha256").update(data).digest("hex");
}
