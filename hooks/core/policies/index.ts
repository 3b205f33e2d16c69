// The policies, in the order their proposals are merged (and their messages
// read). Adding a policy is adding a file and a line here.
import type { Policy } from "./proposal.js";
import { refusals } from "./refusals.js";
import { selfProtection } from "./self-protection.js";
import { disabledRows } from "./disabled-rows.js";
import { configGuard } from "./config-guard.js";
import { hints } from "./hints.js";
import { budget } from "./budget.js";
import { compactionReminder } from "./compaction.js";
import { outputCap } from "./output-cap.js";
import { subagentFinished } from "./subagent-finished.js";
import { effectsAudit } from "./effects-audit.js";
import { evidenceGate } from "./evidence.js";
import { budgetProfile } from "./budget-profile.js";
import { skillChanged } from "./skill-changed.js";

export const POLICIES: readonly Policy[] = [
  selfProtection,
  configGuard,
  disabledRows,
  refusals,
  evidenceGate,
  hints,
  budget,
  budgetProfile,
  compactionReminder,
  skillChanged,
  effectsAudit,
  outputCap,
  subagentFinished,
];
