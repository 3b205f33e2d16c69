// opencode's plugin module: the opencode host (hooks/hosts/opencode/plugin.ts)
// over the runner every host shares. Bundled to dist/opencode-plugin.mjs.
// It exports only the plugin function: opencode calls every function a plugin
// module exports as a plugin.
import { opencodePlugin } from "../hosts/opencode/plugin.js";
import { loadContext } from "../runner/context.js";
import { runEvent } from "../runner/hook.js";

export const SkillgatePlugin = opencodePlugin({
  async start(w) {
    const ctx = await loadContext(w, { protect: false, realPaths: false });
    const failClosed = (ctx.ok ? ctx.table.table.failMode : ctx.failMode) === "closed";
    return ctx.ok ? { ok: true, skillsDir: ctx.table.skillsDir, failClosed } : { ok: false, error: ctx.error, failClosed };
  },
  run: (event, w, o) => runEvent(event, w, o),
});
