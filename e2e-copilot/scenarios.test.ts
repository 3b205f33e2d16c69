// The shared scenarios (e2e-shared/scenarios.ts) under the real Copilot CLI.
import { runScenarios } from "../e2e-shared/scenarios.ts";
import { copilotDriver } from "./driver.ts";

runScenarios(copilotDriver, import.meta.filename);
