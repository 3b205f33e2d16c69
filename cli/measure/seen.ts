// A set of 53-bit numbers (uuid hashes) in two flat typed arrays with open
// addressing: 8 bytes a slot, no boxed numbers, no per-entry objects. Used to
// count a line once when Claude Code copied it into another file.
export class HashSet53 {
  private hi = new Uint32Array(1 << 14);
  private lo = new Uint32Array(1 << 14);
  private used = new Uint8Array(1 << 14);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `h` (an integer in [1, 2^53)); false when it was there already. */
  add(h: number): boolean {
    if (this.count * 2 >= this.used.length) this.grow();
    return this.put(Math.floor(h / 4294967296) >>> 0, h >>> 0);
  }

  private put(hi: number, lo: number): boolean {
    const mask = this.used.length - 1;
    let i = (Math.imul(lo ^ hi, 0x9e3779b1) >>> 0) & mask;
    while (this.used[i]) {
      if (this.lo[i] === lo && this.hi[i] === hi) return false;
      i = (i + 1) & mask;
    }
    this.used[i] = 1;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.count++;
    return true;
  }

  private grow(): void {
    const { hi, lo, used } = this;
    const n = used.length * 2;
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.used = new Uint8Array(n);
    this.count = 0;
    for (let i = 0; i < used.length; i++) if (used[i]) this.put(hi[i]!, lo[i]!);
  }
}
