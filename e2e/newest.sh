#!/bin/sh
# Run the e2e suite against the newest Claude Code the registry serves (or the
# version given as $1) and report how it differs from the pinned one. It never
# fails on a difference: the pinned run (npm run test:e2e) is the gate; this is
# the early warning. Exit status is non-zero only if the install itself fails.
#
#   e2e/newest.sh            # @anthropic-ai/claude-code@latest
#   e2e/newest.sh 2.1.330    # a given version
#   CLAUDE_BIN=/path/to/claude e2e/newest.sh   # a binary you already have (no install)
#
# Needs a built skillgate (npm run build) and the root devDependencies (tsx).
set -u
cd "$(dirname "$0")/.." || exit 2
want="${1:-latest}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/skillgate-newest-XXXXXX")
bin="${CLAUDE_BIN:-}"

if [ -z "$bin" ]; then
  echo "installing @anthropic-ai/claude-code@$want into $dir ..."
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "@anthropic-ai/claude-code@$want" >"$dir/npm.log" 2>&1 ||
    { cat "$dir/npm.log"; echo "newest.sh: npm install failed"; exit 2; }
  # The native binary lives in the platform package; the wrapper's bin/claude.exe
  # is a hard link to it only when its postinstall ran.
  for c in "$dir"/node_modules/@anthropic-ai/claude-code-*/claude "$dir"/node_modules/@anthropic-ai/claude-code/bin/claude.exe; do
    if [ -x "$c" ] && "$c" --version >/dev/null 2>&1; then bin="$c"; break; fi
  done
  [ -n "$bin" ] || { echo "newest.sh: no runnable claude binary under $dir/node_modules"; exit 2; }
fi
pinned=$(node -p "require('./e2e/package.json').dependencies['@anthropic-ai/claude-code']")
version=$("$bin" --version)
echo "running the e2e suite against $version (pinned: $pinned) ..."

CLAUDE_BIN="$bin" node --import tsx --test --test-concurrency=1 --test-reporter=spec e2e/*.test.ts >"$dir/report.txt" 2>&1
rc=$?

echo
if [ "$rc" -eq 0 ]; then
  echo "no differences: every scenario passes on $version as on $pinned"
else
  echo "DIFFERENCES on $version (these pass on $pinned):"
  grep -E '^✖ ' "$dir/report.txt" | grep -v '^✖ failing tests:' | sort -u | sed 's/^/  /'
  echo
  echo "details (assertion messages): $dir/report.txt"
fi
grep -E '^ℹ (tests|pass|fail|duration_ms) ' "$dir/report.txt"
exit 0
