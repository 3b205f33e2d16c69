// The contract every host folder (hooks/hosts/<host>/) fulfils. Types only:
// the runner drives a Host; the core never calls one.
import type { Decision, Effects, Event } from "./types.js";
import type { PluginCommand } from "./table/compile.js";

export type Env = Readonly<Record<string, string | undefined>>;

export type Normalized =
  | { ok: true; event: Event; transcriptPath?: string }
  /** An event skillgate has nothing to do with: answer nothing. */
  | { ok: false; ignored: true }
  | { ok: false; ignored: false; error: string };

/** What the host's environment says about where things are, folded into the table once (runner/context.ts). */
export interface HostEnvironment {
  /** Folders whose `<skill>/SKILL.md`, read whole, loads the skill (besides the table's skillsDir). */
  skillRoots: string[];
  /** The plugin root when skillgate runs as the host's plugin. */
  pluginRoot?: string;
  /** The host's data folder for skillgate as its plugin (kept across plugin updates): the state folder goes under it. */
  dataDir?: string;
  /** The project folder the host runs in, when it names one: evidence binds to it (else the event's cwd). */
  projectDir?: string;
  /** The project's own table file (whether or not it exists): used when it exists (after --table, $SKILLGATE_TABLE); the agent may not create or edit it. */
  projectTable?: string;
  /** More project table files, tried in order when projectTable does not exist (opencode reads Claude Code's); protected like it. */
  alsoTables?: string[];
  /** Settings files that can register (or unregister) the hook: the agent may not write them. */
  settingsFiles: string[];
}

export interface HostCapabilities {
  /** Subagents have the skill tool, so they can load skills themselves. */
  subagentsLoadSkills: boolean;
  /** The host runs a tool call with an input the hook rewrote (Effects.updatedInput); needed for evidence reuse. */
  rewritesToolInput?: boolean;
  /** A shell call's result says whether the command exited 0 (a failure event, an exit code); needed to record a check's run as evidence. */
  reportsExitStatus?: boolean;
}

/**
 * How a host's transcript tells the prompt size of the main thread's latest model request (budget rows read
 * it when the event does not carry it). The runner reads the transcript's tail and asks about each line, last first.
 */
export interface PromptSizeReader {
  /** The size one transcript line reports, if it is a main-thread model response that carries one (tokens). */
  fromLine(line: string): number | undefined;
  /**
   * A text the transcript holds once the response that made this tool call is on file. A host that writes its
   * transcript after the hook may already run says so: the read waits, briefly, for it.
   */
  callMarker?(callId: string): string;
}

export interface Host {
  name: string;
  /** Variables that choose this host's table, skill roots and state folder: a shell call's ticket keeps them for the git hooks. */
  configEnv?: RegExp;
  capabilities: HostCapabilities;
  normalize(payload: unknown): Normalized;
  /** The host's answer for a decision (undefined: print nothing). */
  render(event: Event, decision: Decision, effects: Effects): Record<string, unknown> | undefined;
  /** The answer when nothing could be decided: tell the user; refuse the tool call when failing closed. */
  renderFailure(message: string, refuseToolCall: boolean): Record<string, unknown>;
  /** For input that never parsed: was it a tool call (the only event a failure may refuse)? */
  looksLikeToolCall(raw: string): boolean;
  environment(env: Env): HostEnvironment;
  /**
   * How this host's model loads a skill, in the host's own tool names (refusals and hints quote it):
   * `skill` as the skill tool knows it (plugin-namespaced where that applies), `skillFile` its SKILL.md.
   */
  howToLoad(skill: string, skillFile: string): string;
  /** Where this host's transcript says how large the prompt is (absent: budget rows need the event to carry it). */
  promptSize?: PromptSizeReader;
  /** The client's command that removes or disables a plugin, if it has one (self-protection refuses it for skillgate). */
  pluginCommand?: PluginCommand;
  /** Whether a settings file (one of environment().settingsFiles) registers skillgate's hook. */
  registersSkillgate?(file: string): boolean;
  /** Whether a settings file switches skillgate off without removing its hook (Claude Code: `disableAllHooks`, SKILLGATE_* in `env`). */
  weakensSkillgate?(file: string): boolean;
  /** What a settings file lacks of skillgate's registration as install writes it, as stable keys (recorded at session start). */
  settingsDeficits?(file: string, ours: SkillgateAt): string[];
  /** What a change made to a settings file weakens, compared with its deficits at session start (`before`; undefined: unknown), in words. */
  settingsWeakenings?(file: string, before: string[] | undefined, ours: SkillgateAt): string[];
}

/**
 * How a host's hook process reads its event (hooks/hosts/<host>/hook.ts): the runner's process edge
 * (runner/process.ts) runs it, wired in hooks/entries/<host>.ts.
 */
export interface HostProcess {
  host: Host;
  /** The host's project folder, its variable for it, and where it keeps a project table (used unless $SKILLGATE_TABLE is set). */
  project?: { dir: string; cwdVar: string; table: string };
  /** Annotate the raw event before it is parsed, with what only the edge can read (a transcript, a size check). */
  input?: (text: string, env: NodeJS.ProcessEnv) => string;
}

/** The running skillgate, so a host can tell its handlers from look-alikes. */
export interface SkillgateAt {
  packageRoot: string;
  projectDir?: string;
}
