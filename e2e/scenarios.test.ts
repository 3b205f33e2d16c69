// The shared scenarios (e2e-shared/scenarios.ts) under the real Claude Code.
import { runScenarios } from "../e2e-shared/scenarios.ts";
import { claudeDriver } from "./driver.ts";

runScenarios(claudeDriver, import.meta.filename);
