// The scripted Responses API for Copilot CLI (BYOK, wire API "responses"): the shared mock
// (e2e-shared/responses-mock.ts) with Copilot's compaction prompt and the full stream
// (1.0.102 builds its answer from response.completed's `output`).
import { startResponsesMock, type MockOptions, type MockResponses } from "../e2e-shared/responses-mock.ts";

export * from "../e2e-shared/responses-mock.ts";

// Copilot CLI 1.0.102 asks for its summary with a user message saying "The history is being compacted".
const COMPACT_MARKERS = ["CONTEXT CHECKPOINT COMPACTION", "handoff summary", "The history is being compacted"];

export const startMockResponses = (opts: MockOptions): Promise<MockResponses> =>
  startResponsesMock(opts, { compactMarkers: COMPACT_MARKERS, fullStream: true });
