// Evidence on disk, per workspace, in the state folder:
//   records/<check>/<id>.json        immutable; created with link(2), never overwritten
//   pointers/<check>/<seq>.json      the pointer history; the highest seq is the pointer
//   pending/<toolUseId>.json         what PreToolUse saw, until PostToolUse takes it
// Publishing a pointer is a compare-and-swap without a lock: the writer links
// seq = (the seq it saw when the run started) + 1, and link(2) fails if anyone
// got there first. Then the conflict is itself published as the next pointer
// (both records named), so it stays visible until a later run replaces it —
// never last-write-wins. Every file is signed with the state folder's key.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parsePending, parseRecord, type EvidenceRecord, type PendingRun } from "../core/evidence.js";
import { signed, stateKey, verified } from "./state-key.js";
import { makeDir } from "./make-dir.js";

const SAFE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const SEQ = /^(\d{12})\.json$/;
/** Pointer versions kept for investigation; older ones are removed on publish. */
const KEEP_POINTERS = 100;
/** Records kept per check (newest first); the pointer's record is always kept. */
const KEEP_RECORDS = 100;
/** A pending run older than this lost its PostToolUse (interrupted call). */
const PENDING_MAX_MS = 24 * 3600_000;

export interface Pointer {
  version: 1;
  seq: number;
  check: string;
  /** The latest record of the check (null only in a conflict before any record). */
  record: string | null;
  /** The seq this pointer replaced. */
  parentSeq: number;
  /** Two runs overlapped: `record` published first, `conflictRecord` found the pointer moved. */
  conflictRecord?: string;
}

export interface Latest {
  seq: number;
  pointer?: Pointer;
  record?: EvidenceRecord;
  /** The pointer or its record exists but cannot be trusted. */
  unreadable?: string;
  /** A published conflict, in words. */
  conflict?: string;
}

export type Published = { ok: true; seq: number } | { ok: false; seq: number; conflict: string };

export function checkIdOk(id: string): boolean {
  return SAFE.test(id) && !id.includes("..");
}

export class EvidenceStore {
  readonly dir: string;
  private readonly key: Buffer;

  constructor(
    readonly stateDir: string,
    /** The absolute workspace folder; records are kept per workspace. */
    readonly workspace: string,
  ) {
    const name = crypto.createHash("sha256").update(workspace).digest("hex").slice(0, 32);
    this.dir = path.join(stateDir, "evidence", name);
    this.key = stateKey(stateDir);
  }

  private sub(kind: "records" | "pointers", check: string): string {
    if (!checkIdOk(check)) throw new Error(`unsafe check id ${JSON.stringify(check.slice(0, 40))}`);
    return path.join(this.dir, kind, check);
  }

  /** Write `text` to `file` only if it does not exist yet (temp file + link). */
  private createOnce(file: string, text: string): boolean {
    makeDir(path.dirname(file), 0o700);
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
    try {
      fs.linkSync(tmp, file);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  private readSigned(file: string): { ok: true; value: unknown } | { ok: false; why: string } | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      return { ok: false, why: `${file} unreadable (${(e as Error).message})` };
    }
    const body = verified(this.key, text);
    if (body === undefined) return { ok: false, why: `${file} failed its signature check (edited, or from another state folder)` };
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch {
      return { ok: false, why: `${file} is not JSON` };
    }
  }

  /** Step 1: the immutable record. Its id is assigned here (time-ordered, unique). */
  writeRecord(rec: Omit<EvidenceRecord, "id">, now = new Date()): EvidenceRecord {
    for (;;) {
      const id = `${now.toISOString().replace(/[-:.]/g, "")}-${crypto.randomBytes(4).toString("hex")}`;
      const full: EvidenceRecord = { ...rec, id } as EvidenceRecord;
      if (this.createOnce(path.join(this.sub("records", rec.check), `${id}.json`), signed(this.key, JSON.stringify(full)))) return full;
    }
  }

  readRecord(check: string, id: string): { record: EvidenceRecord } | { unreadable: string } {
    if (!checkIdOk(id)) return { unreadable: `record id ${JSON.stringify(id)} is not a safe name` };
    const file = path.join(this.sub("records", check), `${id}.json`);
    const r = this.readSigned(file);
    if (!r) return { unreadable: `record ${file} is gone` };
    if (!r.ok) return { unreadable: r.why };
    const rec = parseRecord(r.value);
    if (!rec || rec.id !== id || rec.check !== check) return { unreadable: `record ${file} does not have the record shape` };
    return { record: rec };
  }

  /** The current pointer's seq (0 when the check has none). */
  seq(check: string): number {
    let names: string[];
    try {
      names = fs.readdirSync(this.sub("pointers", check));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw e;
    }
    let max = 0;
    for (const n of names) {
      const m = SEQ.exec(n);
      if (m?.[1]) max = Math.max(max, Number(m[1]));
    }
    return max;
  }

  private pointerFile(check: string, seq: number): string {
    return path.join(this.sub("pointers", check), `${String(seq).padStart(12, "0")}.json`);
  }

  /** The latest pointer and its record, each verified. */
  latest(check: string): Latest {
    const seq = this.seq(check);
    if (seq === 0) return { seq };
    const r = this.readSigned(this.pointerFile(check, seq));
    if (!r) return { seq, unreadable: `pointer ${seq} of check ${check} vanished while being read` };
    if (!r.ok) return { seq, unreadable: r.why };
    const p = r.value as Partial<Pointer>;
    if (p?.version !== 1 || p.seq !== seq || p.check !== check || !(p.record === null || typeof p.record === "string") || typeof p.parentSeq !== "number") {
      return { seq, unreadable: `pointer ${this.pointerFile(check, seq)} does not have the pointer shape` };
    }
    const pointer = p as Pointer;
    const conflict = pointer.conflictRecord
      ? `two runs of check "${check}" overlapped (records ${pointer.record ?? "none"} and ${pointer.conflictRecord}); neither is taken as the latest on its own`
      : undefined;
    if (pointer.record === null) return { seq, pointer, conflict };
    const rec = this.readRecord(check, pointer.record);
    if ("unreadable" in rec) return { seq, pointer, unreadable: rec.unreadable, conflict };
    return { seq, pointer, record: rec.record, conflict };
  }

  /**
   * Step 2: move the pointer to `recordId` if it still is at `parentSeq` (what
   * the run saw when it started). Otherwise publish the conflict.
   */
  publish(check: string, recordId: string, parentSeq: number): Published {
    const p: Pointer = { version: 1, seq: parentSeq + 1, check, record: recordId, parentSeq };
    if (this.createOnce(this.pointerFile(check, p.seq), signed(this.key, JSON.stringify(p)))) {
      this.prune(check, p.seq);
      return { ok: true, seq: p.seq };
    }
    for (let attempt = 0; attempt < 50; attempt++) {
      const cur = this.latest(check);
      const c: Pointer = { version: 1, seq: cur.seq + 1, check, record: cur.pointer?.record ?? null, parentSeq: cur.seq, conflictRecord: recordId };
      if (this.createOnce(this.pointerFile(check, c.seq), signed(this.key, JSON.stringify(c)))) {
        return {
          ok: false,
          seq: c.seq,
          conflict: `the pointer of check "${check}" moved from ${parentSeq} to ${cur.seq} while this run went on; conflict published as pointer ${c.seq}`,
        };
      }
    }
    throw new Error(`evidence pointer of check ${check} keeps moving; gave up after 50 attempts`);
  }

  /** Checks that have a pointer or records. */
  checks(): string[] {
    const names = new Set<string>();
    for (const kind of ["pointers", "records"]) {
      try {
        for (const n of fs.readdirSync(path.join(this.dir, kind))) if (checkIdOk(n)) names.add(n);
      } catch {
        /* none yet */
      }
    }
    return [...names].sort();
  }

  /** Records no pointer names, newer than the pointer's record: an incomplete write (crash between record and pointer). */
  unpublished(check: string): string[] {
    const l = this.latest(check);
    let names: string[] = [];
    try {
      names = fs
        .readdirSync(this.sub("records", check))
        .filter((n) => n.endsWith(".json"))
        .map((n) => n.slice(0, -5));
    } catch {
      return [];
    }
    const named = new Set<string>();
    for (let s = Math.max(1, l.seq - KEEP_POINTERS); s <= l.seq; s++) {
      const r = this.readSigned(this.pointerFile(check, s));
      const p = r?.ok ? (r.value as Partial<Pointer>) : undefined;
      if (typeof p?.record === "string") named.add(p.record);
      if (typeof p?.conflictRecord === "string") named.add(p.conflictRecord);
    }
    // Ids start with the write time to the millisecond; the random tail after it does not
    // order two records of the same millisecond, so only the time part is compared.
    const newest = l.pointer?.record ?? "";
    const at = (id: string) => id.split("-")[0] ?? "";
    return names.filter((n) => !named.has(n) && n !== newest && at(n) >= at(newest)).sort();
  }

  private prune(check: string, seq: number): void {
    try {
      const dir = this.sub("pointers", check);
      for (const n of fs.readdirSync(dir)) {
        const m = SEQ.exec(n);
        if (m?.[1] && Number(m[1]) <= seq - KEEP_POINTERS) fs.rmSync(path.join(dir, n), { force: true });
      }
      const keep = new Set([this.latest(check).pointer?.record]);
      const rdir = this.sub("records", check);
      const recs = fs
        .readdirSync(rdir)
        .filter((n) => n.endsWith(".json"))
        .sort()
        .reverse();
      for (const n of recs.slice(KEEP_RECORDS)) if (!keep.has(n.slice(0, -5))) fs.rmSync(path.join(rdir, n), { force: true });
    } catch {
      /* pruning is housekeeping; a failure here must not fail the publish */
    }
  }

  // ---- pending runs (PreToolUse → PostToolUse) ----

  private pendingFile(toolUseId: string): string {
    if (!checkIdOk(toolUseId)) throw new Error(`unsafe tool_use_id ${JSON.stringify(toolUseId.slice(0, 40))}`);
    return path.join(this.dir, "pending", `${toolUseId}.json`);
  }

  savePending(p: PendingRun): void {
    const file = this.pendingFile(p.toolUseId);
    makeDir(path.dirname(file), 0o700);
    // One tool call starts one run; a repeated PreToolUse (another hook entry) replaces it.
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    fs.writeFileSync(tmp, signed(this.key, JSON.stringify(p)), { mode: 0o600, flag: "wx" });
    fs.renameSync(tmp, file);
    this.cleanPending();
  }

  /** Read and remove the pending run of a tool call (once: a second PostToolUse finds nothing). */
  takePending(toolUseId: string): { pending?: PendingRun; unreadable?: string } {
    const file = this.pendingFile(toolUseId);
    const taken = `${file}.${process.pid}.taken`;
    try {
      fs.renameSync(file, taken);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw e;
    }
    try {
      const r = this.readSigned(taken);
      if (!r) return {};
      if (!r.ok) return { unreadable: r.why };
      const p = parsePending(r.value);
      return p ? { pending: p } : { unreadable: `pending run ${file} does not have the pending shape` };
    } finally {
      fs.rmSync(taken, { force: true });
    }
  }

  private cleanPending(now = Date.now()): void {
    const dir = path.join(this.dir, "pending");
    try {
      for (const n of fs.readdirSync(dir)) {
        const f = path.join(dir, n);
        if (now - fs.statSync(f).mtimeMs > PENDING_MAX_MS) fs.rmSync(f, { force: true });
      }
    } catch {
      /* housekeeping */
    }
  }
}
