// A fast 64-bit checksum (two FNV-1a-style lanes over 32-bit words of the
// UTF-8 bytes) for what the hook checks on every start: the table's bytes
// (which validated cache to use) and the table cache's body (keyed: see
// table-load.ts). Not cryptographic, and need not be: the key sits in a
// folder the agent can read (io/state-key.ts says so), so a MAC there only
// makes an edited cache fail loudly. node:crypto would be: loading it costs
// Node 20 5–70 ms at start on this VM (`SKILLGATE_TIMINGS=1`), Bun 10–90 ms.
export function fastHash(text: string, key = ""): string {
  const bytes = Buffer.from(key ? `${key}\0${text}` : text, "utf8");
  // An aligned copy, zero-padded to whole words: 4 bytes per step, not 1.
  const words = new Int32Array(Math.ceil(bytes.length / 4));
  new Uint8Array(words.buffer).set(bytes);
  let a = 0x811c9dc5 ^ bytes.length;
  let b = 0x01000193;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? 0;
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ (w >>> 7), 0x5bd1e995) ^ a;
  }
  return `${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}
