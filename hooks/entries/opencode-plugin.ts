// opencode's plugin module: the opencode host (hooks/hosts/opencode/plugin.ts)
// over the runner every host shares. Bundled to dist/opencode-plugin.mjs.
// It exports only the plugin function: opencode calls every function a plugin
// module exports as a plugin.
import { opencodePlugin } from "../hosts/opencode/plugin.js";
import { ContextCache, loadContext } from "../runner/context.js";
import { runEvent } from "../runner/hook.js";
import { noteStateWrite, restorePending } from "../runner/audit.js";
import { StateCache } from "../io/state-cache.js";
import { StateStore } from "../io/state-store.js";

export const SkillgatePlugin = opencodePlugin({
  async start(w, warn) {
    // Per plugin instance (one per opencode project): loaded tables and session state, kept between events.
    const contexts = new ContextCache();
    const ctx = await loadContext({ ...w, contexts }, { protect: false, realPaths: false });
    const failClosed = (ctx.ok ? ctx.table.table.failMode : ctx.failMode) === "closed";
    const stateDir = ctx.stateDir;
    // While a restore is pending the state file is compared with what the hook wrote (runner/restore.ts): write at once,
    // and every write (the one a shell call's flush makes after its restore noted the state, too) becomes that record.
    const states = new StateCache(new StateStore(stateDir), {
      writeThrough: (id) => restorePending(stateDir, id),
      onWrite: (id, text) => noteStateWrite(stateDir, id, text),
      onError: warn,
    });
    return {
      table: ctx.ok ? { ok: true, skillsDir: ctx.table.skillsDir, failClosed } : { ok: false, error: ctx.error, failClosed },
      run: (event, o) => runEvent(event, { ...w, contexts }, { ...o, store: () => states }),
      flush: () => states.flush(),
    };
  },
});
