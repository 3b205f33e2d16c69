// The scripted Responses API for Codex CLI: the shared mock (e2e-shared/responses-mock.ts)
// with Codex's compaction prompt and the bare stream 0.171.0 was verified with.
import { startResponsesMock, type MockOptions, type MockResponses } from "../e2e-shared/responses-mock.ts";

export * from "../e2e-shared/responses-mock.ts";

// Codex's local compaction asks the model for a summary with this prompt (checked against 0.171.0's request).
const COMPACT_MARKERS = ["CONTEXT CHECKPOINT COMPACTION", "handoff summary"];

export const startMockResponses = (opts: MockOptions): Promise<MockResponses> =>
  startResponsesMock(opts, { compactMarkers: COMPACT_MARKERS, fullStream: false });
