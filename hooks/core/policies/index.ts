// The policies, in the order their proposals are merged (and their messages
// read). Adding a policy is adding a file and a line here.
import type { Policy } from "./proposal.js";
import { refusals } from "./refusals.js";
import { hints } from "./hints.js";
import { budget } from "./budget.js";
import { compactionReminder } from "./compaction.js";
import { outputCap } from "./output-cap.js";

export const POLICIES: readonly Policy[] = [refusals, hints, budget, compactionReminder, outputCap];
