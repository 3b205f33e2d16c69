// The two ways skillgate checks a file it wrote before believing it (io/state-key.ts): an HMAC for
// evidence records, a keyed checksum for the files read back around every shell call. Either way an
// edited file, or one written under another key, is not believed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checksumVerified, checksummed, signed, stateKey, verified } from "../hooks/io/state-key.ts";

const key = stateKey(fs.mkdtempSync(path.join(os.tmpdir(), "sg-key-")));
const other = stateKey(fs.mkdtempSync(path.join(os.tmpdir(), "sg-key-")));
const body = '{"version":1,"files":{"/p/docs/a_RU.md":{"kind":"file","sha":"ab"}}}';

describe("a checksummed file", () => {
  test("reads back as written", () => {
    assert.equal(checksumVerified(key, checksummed(key, body)), body);
    assert.equal(checksumVerified(key, checksummed(key, "")), "");
  });
  test("an edit anywhere in the body, or in the sum, fails its check", () => {
    const text = checksummed(key, body);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "\n") continue;
      const edited = text.slice(0, i) + (text[i] === "a" ? "b" : "a") + text.slice(i + 1);
      assert.equal(checksumVerified(key, edited), undefined, `an edit at ${i} was believed`);
    }
    assert.equal(checksumVerified(key, `${text}x`), undefined);
    assert.equal(checksumVerified(key, text.slice(0, -1)), undefined);
  });
  test("written under another key, or as an HMAC-signed file, it is not believed", () => {
    assert.equal(checksumVerified(other, checksummed(key, body)), undefined);
    assert.equal(checksumVerified(key, signed(key, body)), undefined);
    assert.equal(verified(key, checksummed(key, body)), undefined);
    assert.equal(verified(key, signed(key, body)), body);
  });
});
