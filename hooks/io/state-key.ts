// A random key private to the state folder, for MACs over files skillgate
// reads back as facts (stat cache, evidence records). The agent runs as the
// same user and could read the key, so this does not stop a determined
// forger; it makes an edited or copied file fail loudly instead of lying.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const KEY_FILE = ".mac-key";

export function stateKey(stateDir: string): Buffer {
  const file = path.join(stateDir, KEY_FILE);
  const read = (): Buffer | undefined => {
    try {
      const hex = fs.readFileSync(file, "utf8").trim();
      return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  };
  const have = read();
  if (have) return have;
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
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
  return crypto.createHmac("sha256", key).update(text).digest("hex");
}

export function macOk(key: Buffer, text: string, hex: string): boolean {
  const want = Buffer.from(mac(key, text), "hex");
  const got = /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : Buffer.alloc(0);
  return got.length === want.length && crypto.timingSafeEqual(got, want);
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
