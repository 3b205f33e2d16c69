// The shared scenarios (e2e-shared/scenarios.ts) under the real Gemini CLI.
import { runScenarios } from "../e2e-shared/scenarios.ts";
import { geminiDriver } from "./driver.ts";

runScenarios(geminiDriver, import.meta.filename);
