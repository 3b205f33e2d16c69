// A random key private to the state folder, for MACs over files skillgate
// reads back as facts (the table cache, stat cache, evidence records). The agent runs as the
// same user and could read the key, so this does not stop a determined
// forger; it makes an edited or copied file fail loudly instead of lying.
// Hashing is the runtime's own: loading node:crypto costs Bun 10–90 ms (measured
// on this VM), so Bun hashes with its global CryptoHasher and Node with node:crypto,
// fetched on first use (process.getBuiltinModule). Both give the same hex.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { readRegularFile } from "./state-store.js";
import { makeDir } from "./make-dir.js";
import { fastHash } from "./fast-hash.js";

interface Hasher {
  update(data: string): Hasher;
  digest(encoding: "hex"): string;
}
const BunHasher = (globalThis as { Bun?: { CryptoHasher: new (algorithm: "sha256", hmacKey?: Uint8Array) => Hasher } }).Bun?.CryptoHasher;

function nodeCrypto(): typeof import("node:crypto") {
  return process.getBuiltinModule?.("node:crypto") ?? (createRequire(`${process.cwd()}/`)("node:crypto") as typeof import("node:crypto"));
}

const KEY_FILE = ".mac-key";

export function stateKey(stateDir: string): Buffer {
  const file = path.join(stateDir, KEY_FILE);
  // Never through a link, a FIFO or a folder planted in our own folder (it would hang or mislead the hook).
  const read = (): Buffer | undefined => {
    const r = readRegularFile(file, 1024);
    if (!r.ok && r.missing) return undefined;
    if (!r.ok) throw new Error(`skillgate: ${file} is ${r.error}; delete it to make a new key`);
    const hex = r.text.trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : undefined;
  };
  const have = read();
  if (have) return have;
  makeDir(stateDir, 0o700);
  const key = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  try {
    // wx: two first runs racing keep one key (the loser reads the winner's).
    fs.writeFileSync(file, key.toString("hex"), { mode: 0o600, flag: "wx" });
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const again = read();
  if (!again) throw new Error(`skillgate: ${file} is not a 64-hex-digit key; delete it to make a new one`);
  return again;
}

export function mac(key: Buffer, text: string): string {
  return BunHasher ? new BunHasher("sha256", key).update(text).digest("hex") : nodeCrypto().createHmac("sha256", key).update(text).digest("hex");
}

/** Does `hex` sign `text`? Compared in constant time (no early exit on the first differing digit). */
export function macOk(key: Buffer, text: string, hex: string): boolean {
  const want = mac(key, text);
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= want.charCodeAt(i) ^ hex.charCodeAt(i);
  return diff === 0;
}

/** A file body signed on its first line: `<mac>\n<body>`. */
export function signed(key: Buffer, body: string): string {
  return `${mac(key, body)}\n${body}`;
}

/** The body of a signed file, or undefined when the MAC does not match. */
export function verified(key: Buffer, text: string): string | undefined {
  const nl = text.indexOf("\n");
  if (nl !== 64) return undefined;
  const body = text.slice(nl + 1);
  return macOk(key, body, text.slice(0, nl)) ? body : undefined;
}

/**
 * The files the hook writes and reads back around every shell call it cannot prove read-only (the
 * restore's baseline and state witness, the stat and listing caches): the same `<sum>\n<body>` shape,
 * with a keyed 64-bit checksum (io/fast-hash.ts) in place of the HMAC. The key is readable by the
 * agent either way (see above), so both only make an edited file fail its check; the checksum spares
 * Node loading node:crypto, 4–6 ms of such a call (`SKILLGATE_TIMINGS=1`). Evidence records keep the HMAC.
 */
export function checksummed(key: Buffer, body: string): string {
  return `${fastHash(body, key.toString("hex"))}\n${body}`;
}

/** The body of a checksummed file, or undefined when its checksum does not match. */
export function checksumVerified(key: Buffer, text: string): string | undefined {
  const nl = text.indexOf("\n");
  if (nl !== 16) return undefined;
  const body = text.slice(nl + 1);
  return text.slice(0, nl) === fastHash(body, key.toString("hex")) ? body : undefined;
}
