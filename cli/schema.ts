// `skillgate schema`: the JSON Schema of triggers.json, generated from the zod schema.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "./args.js";
import { tableJsonSchema } from "../hooks/core/table/schema.js";

export function schemaText(): string {
  return JSON.stringify(tableJsonSchema(), null, 2) + "\n";
}

export async function schemaMain(args: string[], root: string): Promise<number> {
  const text = schemaText();
  if (parseArgs("schema", args).has("write")) {
    fs.writeFileSync(path.join(root, "triggers.schema.json"), text);
    console.log(`wrote ${path.join(root, "triggers.schema.json")}`);
  } else process.stdout.write(text);
  return 0;
}
