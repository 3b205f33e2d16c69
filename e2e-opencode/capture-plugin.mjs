// Records what the real opencode passes to each plugin hook (input and output,
// as JSON lines in $CAPTURE_LOG). Used by capture.ts to make
// test/fixtures/opencode/; also tries the two things skillgate relies on:
// a `config` hook adding a skills path, and a synthetic part added in chat.message.
import { appendFileSync } from "node:fs";

const LOG = process.env.CAPTURE_LOG;
const KEEP_EVENTS = /^session\.(created|compacted|idle|status|error|deleted)$/;
const w = (hook, input, output) => LOG && appendFileSync(LOG, JSON.stringify({ hook, input, output }) + "\n");
let n = 0;

export const Capture = async (ctx) => {
  w("init", { directory: ctx.directory, worktree: ctx.worktree }, {});
  return {
    config: async (config) => {
      w("config", { skills: config.skills, plugin: config.plugin }, {});
      if (process.env.CAPTURE_SKILLS_PATH) {
        config.skills ??= {};
        config.skills.paths = [...(config.skills.paths ?? []), process.env.CAPTURE_SKILLS_PATH];
      }
    },
    event: async (input) => KEEP_EVENTS.test(input.event.type) && w("event", input, {}),
    "chat.message": async (i, o) => {
      w("chat.message", i, o);
      const last = o.parts.at(-1);
      if (process.env.CAPTURE_HINT && last) {
        o.parts.push({
          id: `${last.id}h${n++}`,
          messageID: o.message.id,
          sessionID: o.message.sessionID,
          type: "text",
          synthetic: true,
          text: process.env.CAPTURE_HINT,
        });
      }
    },
    "tool.execute.before": async (i, o) => {
      w("tool.execute.before", i, o);
      if (process.env.CAPTURE_REFUSE && String(o.args?.command ?? "").includes(process.env.CAPTURE_REFUSE))
        throw new Error(`CAPTURE-REFUSAL: ${process.env.CAPTURE_REFUSE}`);
    },
    "tool.execute.after": async (i, o) => {
      w("tool.execute.after", i, o);
      if (process.env.CAPTURE_REWRITE && i.tool === "bash") o.output = `${process.env.CAPTURE_REWRITE}\n${o.output.slice(0, 100)}`;
    },
    "command.execute.before": async (i, o) => w("command.execute.before", i, o),
    "experimental.session.compacting": async (i, o) => w("experimental.session.compacting", i, o),
  };
};
