// Writes cases/case.schema.json (the JSON Schema editors use for case files)
// from the zod schema the loader enforces: node --import tsx cli/cases/case-schema.ts
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { caseJsonSchema, fixturesIn } from "./format.js";

export function writeCaseSchema(packageRoot: string): string {
  const dir = path.join(packageRoot, "cases");
  const file = path.join(dir, "case.schema.json");
  fs.writeFileSync(file, `${JSON.stringify(caseJsonSchema([...fixturesIn([path.join(dir, "fixtures")]).keys()]), null, 2)}\n`);
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${writeCaseSchema(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", ".."))}`);
}
