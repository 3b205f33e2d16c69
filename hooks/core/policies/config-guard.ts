// A settings change that removes or alters skillgate's own hook registration
// is refused (the host then keeps the old settings): the gate cannot be
// switched off from inside the session it governs.
import type { Policy } from "./proposal.js";

export const CONFIG_GUARD_ROW = "config-guard";

export const configGuard: Policy = ({ event }) => {
  if (event.kind !== "config-change" || !event.removesSkillgate) return undefined;
  // Each weakening names its file, the event and what changed (the host compared the file with session start).
  const what = event.weakenings?.length ? `: ${event.weakenings.join("; ")}` : "";
  return {
    refuse: [
      {
        row: CONFIG_GUARD_ROW,
        line: `skillgate[${CONFIG_GUARD_ROW}]: the change to ${event.file ?? event.source} removes or alters skillgate's hook (or switches hooks or skillgate off)${what}. It is refused for this session; the user changes skillgate's registration with \`skillgate install\` or removes it with \`skillgate uninstall\`, outside the session.`,
      },
    ],
  };
};
