// The shared scenarios (e2e-shared/scenarios.ts) under the real opencode.
import { runScenarios } from "../e2e-shared/scenarios.ts";
import { opencodeDriver } from "./driver.ts";

runScenarios(opencodeDriver, import.meta.filename);
