// The shared scenarios (e2e-shared/scenarios.ts) under the real Codex CLI.
import { runScenarios } from "../e2e-shared/scenarios.ts";
import { codexDriver } from "./driver.ts";

runScenarios(codexDriver, import.meta.filename);
