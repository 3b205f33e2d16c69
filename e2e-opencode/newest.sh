#!/bin/sh
# Run the opencode e2e suite against the newest opencode the registry serves (or
# the version given as $1) and report how it differs from the pinned one. Never
# fails on a difference (the pinned run is the gate); non-zero only if the
# install itself fails.
#
#   e2e-opencode/newest.sh            # opencode-ai@latest
#   e2e-opencode/newest.sh 1.18.30    # a given version
#   OPENCODE_BIN=/path/to/opencode e2e-opencode/newest.sh
#
# Needs a built skillgate (npm run build) and the root devDependencies (tsx).
set -u
cd "$(dirname "$0")/.." || exit 2
want="${1:-latest}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/skillgate-oc-newest-XXXXXX")
bin="${OPENCODE_BIN:-}"

if [ -z "$bin" ]; then
  echo "installing opencode-ai@$want into $dir ..."
  npm install --prefix "$dir" --no-audit --no-fund --no-save --ignore-scripts --loglevel=error "opencode-ai@$want" >"$dir/npm.log" 2>&1 ||
    { cat "$dir/npm.log"; echo "newest.sh: npm install failed"; exit 2; }
  # The native binary is in the platform package (opencode-<os>-<arch>[-baseline|-musl]).
  for c in "$dir"/node_modules/opencode-*/bin/opencode; do
    if [ -x "$c" ] && "$c" --version >/dev/null 2>&1; then bin="$c"; break; fi
  done
  [ -n "$bin" ] || { echo "newest.sh: no runnable opencode binary under $dir/node_modules"; exit 2; }
fi
pinned=$(node -p "require('./e2e-opencode/package.json').dependencies['opencode-ai']")
version=$("$bin" --version)
echo "running the opencode e2e suite against $version (pinned: $pinned) ..."

OPENCODE_BIN="$bin" node --import tsx --test --test-concurrency=1 --test-reporter=spec e2e-opencode/*.test.ts >"$dir/report.txt" 2>&1
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
