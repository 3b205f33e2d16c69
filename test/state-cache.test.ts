// The write-behind session store of an in-process host (hooks/io/state-cache.ts):
// decisions read what they wrote at once; the disk gets the same state and counts
// StateStore would hold, after a delay, on flush(), or at once for a write-through session.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StateCache } from "../hooks/io/state-cache.ts";
import { StateStore } from "../hooks/io/state-store.ts";

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-state-cache-"));

test("updates and counts stay in memory until flush, then land as StateStore writes them", () => {
  const d = dir();
  const file = new StateStore(d);
  const cache = new StateCache(file, { delayMs: 60_000 });
  cache.update("s1", (s) => ({ ...s, loaded: ["commit"] }));
  cache.count("s1", [{ counter: "toolCalls", key: "bash", by: 2 }]);
  assert.deepEqual(cache.read("s1").state.loaded, ["commit"]);
  assert.deepEqual(file.read("s1").state.loaded, [], "nothing on disk yet");
  cache.flush();
  assert.deepEqual(file.read("s1").state.loaded, ["commit"]);
  assert.deepEqual(file.counted("s1").toolCalls, { bash: 2 });
  cache.flush();
  assert.deepEqual(file.counted("s1").toolCalls, { bash: 2 }, "a count is written once");
});

test("a write-through session is written at once; a failed write is reported, not thrown", () => {
  const d = dir();
  const file = new StateStore(d);
  const errors: string[] = [];
  const cache = new StateCache(file, { delayMs: 60_000, writeThrough: (id) => id === "now", onError: (m) => errors.push(m) });
  cache.update("now", (s) => ({ ...s, loaded: ["x"] }));
  assert.deepEqual(file.read("now").state.loaded, ["x"]);
  cache.update("later", (s) => ({ ...s, loaded: ["y"] }));
  assert.deepEqual(file.read("later").state.loaded, []);
  // The state folder turned into a file: the write fails with a message.
  fs.rmSync(d, { recursive: true, force: true });
  fs.writeFileSync(d, "");
  cache.flush();
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? "", /^skillgate: session state not saved/);
  fs.rmSync(d, { force: true });
});
