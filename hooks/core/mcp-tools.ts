// MCP tools that write files, whatever the host calls them. Each host names an
// MCP tool its own way (Claude Code and Codex `mcp__<server>__<tool>`, Gemini CLI
// `mcp_<server>_<tool>`, Copilot CLI `<server>-<tool>`, opencode
// `<server>_<tool>`); the adapter finds the tool's own name and calls mcpToolCall,
// so every host turns the same MCP call into the same write facts.
//
// What counts as a write: the tools of the reference filesystem server
// (modelcontextprotocol/servers src/filesystem: write_file {path, content},
// edit_file {path, edits}, create_directory {path}, move_file {source,
// destination}) and any tool whose name starts with a verb that changes files
// (create_*, delete_*, rename_*, …). A write whose path is not an argument
// still is a write (no paths): rows that need a path cannot match it, the rest do.
import type { ToolCall } from "./types.js";

/** Tools of the filesystem server and their common spellings elsewhere: the tool → write or edit. */
const KNOWN: Readonly<Record<string, "write" | "edit">> = {
  write_file: "write",
  create_file: "write",
  create_directory: "write",
  write: "write",
  create: "write",
  edit_file: "edit",
  edit: "edit",
  move_file: "edit",
  rename_file: "edit",
  copy_file: "write",
  delete_file: "edit",
  replace: "edit",
  str_replace: "edit",
  apply_patch: "edit",
  patch_file: "edit",
  append_file: "edit",
  insert: "edit",
};

/** A tool name that starts with one of these verbs changes files (`create_or_update_file`, `delete_directory`). */
const WRITE_VERB =
  /^(write|create|edit|move|rename|copy|delete|remove|append|patch|replace|insert|update|save|put|upload|mkdir|touch|truncate|overwrite)(?=$|[_\-.A-Z])/;
const CREATES = /^(write|create|copy|save|put|upload|mkdir|touch|overwrite)/;

/** Argument names that hold a path the call writes (filesystem server: `path`, `paths`, `source`/`destination`). */
const PATH_ARGS = ["path", "paths", "file_path", "filePath", "file", "filename", "source", "destination", "target", "dest", "from", "to", "directory", "dir"];

/** Does this MCP tool (its own name, without the host's server prefix) write files? */
export function mcpWrites(tool: string): "write" | "edit" | undefined {
  const known = Object.hasOwn(KNOWN, tool) ? KNOWN[tool] : undefined;
  if (known) return known;
  // `writeFile` and `WriteFile` alike; the verb must end the name or a word (`created_at` is no verb).
  const t = tool.charAt(0).toLowerCase() + tool.slice(1);
  if (!WRITE_VERB.test(t)) return undefined;
  return CREATES.test(t) ? "write" : "edit";
}

/** The paths a write's arguments name (strings, or lists of strings, under the usual argument names; and `edits[].path`). */
export function mcpPaths(args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === "string" && v !== "" && v.length <= 4096 && !out.includes(v)) out.push(v);
  };
  for (const name of PATH_ARGS) {
    if (!Object.hasOwn(args, name)) continue;
    const v = args[name];
    if (Array.isArray(v)) v.slice(0, 256).forEach(add);
    else add(v);
  }
  if (Array.isArray(args.edits)) for (const e of args.edits.slice(0, 256)) if (e && typeof e === "object") add((e as Record<string, unknown>).path);
  return out;
}

/**
 * An MCP call as the core sees it: `name` is the host's full tool name, `tool` the
 * MCP server's own tool name. A tool that writes → a write or edit of its paths; else `other`.
 */
export function mcpToolCall(name: string, tool: string, args: Readonly<Record<string, unknown>>): ToolCall {
  const kind = mcpWrites(tool);
  return kind ? { kind, name, paths: mcpPaths(args) } : { kind: "other", name };
}

/**
 * The tool's own name in `<server><sep><tool>` when the separator can also occur in
 * either name (opencode's `_`, Copilot's `-`): the split whose tool part writes, the
 * longest such; else the part after the first separator. A name without the
 * separator has no server part: undefined.
 */
export function mcpToolPart(rest: string, sep: string): string | undefined {
  let first: string | undefined;
  let best: string | undefined;
  for (let i = rest.indexOf(sep); i > 0 && i < rest.length - sep.length; i = rest.indexOf(sep, i + 1)) {
    const tool = rest.slice(i + sep.length);
    first ??= tool;
    if (mcpWrites(tool) && (best === undefined || tool.length > best.length)) best = tool;
  }
  return best ?? first;
}
