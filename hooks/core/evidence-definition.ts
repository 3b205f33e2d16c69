// The check's own definition: the files that say what `npm test` (or pytest,
// cargo test, make check) runs and how — package.json's scripts, the test
// runner's config, the package manager's rc file. They are in every check's
// fingerprint scope, whatever the row's `paths` say: a green got with the
// test script edited to `node -e 0` goes stale the moment the script is put
// back, and a config changed after the run makes it stale too. PURE.

const JS = [
  "package.json",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "pnpm-workspace.yaml",
  "bunfig.toml",
  "deno.json",
  "deno.jsonc",
  "tsconfig.json",
  "jsconfig.json",
  ...exts("jest.config", ["js", "cjs", "mjs", "ts", "cts", "mts", "json"]),
  ...exts("vitest.config", ["js", "cjs", "mjs", "ts", "cts", "mts"]),
  ...exts("vitest.workspace", ["js", "ts", "json"]),
  ...exts("vite.config", ["js", "cjs", "mjs", "ts", "cts", "mts"]),
  ".mocharc",
  ...exts(".mocharc", ["js", "cjs", "json", "jsonc", "yml", "yaml"]),
  ...exts("karma.conf", ["js", "cjs", "ts"]),
  ...exts("playwright.config", ["js", "ts", "mjs", "cjs"]),
  ...exts("cypress.config", ["js", "ts", "mjs", "cjs"]),
  ...exts("ava.config", ["js", "cjs", "mjs"]),
  ".c8rc",
  ".c8rc.json",
  ".nycrc",
  ".nycrc.json",
  ".nycrc.yml",
  ".babelrc",
  ".babelrc.json",
  ...exts("babel.config", ["js", "cjs", "mjs", "json"]),
  ".swcrc",
];
const PYTHON = ["pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini", "conftest.py", "noxfile.py", "setup.py", ".coveragerc"];
const RUST = ["Cargo.toml", ".cargo/config.toml", ".cargo/config", "rust-toolchain", "rust-toolchain.toml"];
const GO = ["go.mod", "go.work"];
const MAKE = ["Makefile", "makefile", "GNUmakefile", "justfile", "Justfile"];
const OTHER = [
  "Rakefile",
  "Gemfile",
  ".rspec",
  "phpunit.xml",
  "phpunit.xml.dist",
  "composer.json",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "pom.xml",
  "CMakeLists.txt",
  "meson.build",
];

const BY_PROGRAM: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    [
      "npm",
      "npx",
      "yarn",
      "pnpm",
      "pnpx",
      "bun",
      "bunx",
      "deno",
      "node",
      "jest",
      "vitest",
      "mocha",
      "ava",
      "tsc",
      "playwright",
      "cypress",
      "karma",
      "c8",
      "nyc",
    ].map((p) => [p, JS]),
  ),
  ...Object.fromEntries(["pytest", "py.test", "python", "python3", "tox", "nox", "uv", "poetry", "hatch", "pdm"].map((p) => [p, PYTHON])),
  cargo: RUST,
  go: GO,
  make: MAKE,
  gmake: MAKE,
  just: MAKE,
};

/** Top-level names that define a JS check besides the fixed ones (`tsconfig.build.json`). */
const JS_PATTERN = /^tsconfig\..+\.json$/;

/**
 * Workspace-relative files that define the check a row's program runs: the
 * fixed names for that program (present or not: one created later is a new
 * input), plus the names in `topLevel` that match its patterns. A program we
 * do not know gets every list.
 */
export function definitionFiles(program: string | undefined, topLevel: readonly string[]): string[] {
  const known = program !== undefined ? BY_PROGRAM[program] : undefined;
  const fixed = known ?? [...JS, ...PYTHON, ...RUST, ...GO, ...MAKE, ...OTHER];
  const js = !known || known === JS;
  return [...new Set([...fixed, ...(js ? topLevel.filter((n) => JS_PATTERN.test(n)) : [])])];
}

function exts(base: string, list: readonly string[]): string[] {
  return list.map((e) => `${base}.${e}`);
}
