#!/usr/bin/env bash
# `npm test`: type check, build the SPA (a production build whatever NODE_ENV says; the browser tests use it), run the SPA's component tests
# (Vitest) and every mocha test, and end with one line of its own summing both: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
# node_modules installed or brought up to date with package-lock.json, and the system programs the tests drive present (named by Debian package when not).
node scripts/ensure-deps.mjs --test || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p test-artifacts
npm run typecheck || { echo "0 passed, 1 failed"; exit 1; }
NODE_ENV=production npm run build -w web >test-artifacts/web-build.log 2>&1 || { cat test-artifacts/web-build.log; echo "0 passed, 1 failed"; exit 1; }
tail -n 5 test-artifacts/web-build.log
# Component tests: their counts come from Vitest's JSON report (the console gets the usual one).
rm -f test-artifacts/vitest.json
NODE_ENV=test npx vitest run --root web --reporter=default --reporter=json --outputFile.json="$PWD/test-artifacts/vitest.json" 2>&1 | tee test-artifacts/vitest.log
vitest_status=${PIPESTATUS[0]}
read -r vitest_passed vitest_failed < <(node -e '
  try {
    const r = JSON.parse(require("fs").readFileSync("test-artifacts/vitest.json", "utf8"));
    // A test file that fails without a failed test (it did not load, say) counts as one failure.
    const broken = (r.testResults || []).filter((f) => f.status === "failed" && !(f.assertionResults || []).some((a) => a.status === "failed")).length;
    console.log(r.numPassedTests, r.numFailedTests + broken);
  } catch { console.log(0, 1); }
')
vitest_passed=${vitest_passed:-0}; vitest_failed=${vitest_failed:-1}
if [ "$vitest_status" -ne 0 ] && [ "$vitest_failed" -eq 0 ]; then vitest_failed=1; fi

rm -f test-artifacts/axe-checks.jsonl
# Mocha's files run side by side in TEST_JOBS processes (most of a test's time is spent waiting on a
# server, a browser or a job, not on the CPU); each process has a database, a Redis prefix and a mail
# catcher of its own (test/support/hooks.ts), so files in different processes share nothing.
# The fault runs (test/chaos) then run alone: they kill and restart PostgreSQL, Redis and the
# product's processes and bound every request in time, so nothing else may load the machine meanwhile.
mocha_counts() { # the passing and failing counts of a mocha log (0 failing when it printed none)
  local p f
  p=$(grep -Eo '^ +[0-9]+ passing' "$1" | grep -Eo '[0-9]+' | tail -1)
  f=$(grep -Eo '^ +[0-9]+ failing' "$1" | grep -Eo '[0-9]+' | tail -1)
  echo "${p:-0} ${f:-0}"
}
npx mocha --parallel --jobs "${TEST_JOBS:-3}" --reporter spec --reporter-option maxDiffSize=4000 "$@" 2>&1 | tee test-artifacts/mocha.log
status=${PIPESTATUS[0]}
read -r passed failed < <(mocha_counts test-artifacts/mocha.log)
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
npx mocha --no-config --node-option import=tsx --extension ts --timeout 20000 --exit --reporter spec test/chaos/chaos.test.ts 2>&1 | tee test-artifacts/mocha-chaos.log
chaos_status=${PIPESTATUS[0]}
read -r chaos_passed chaos_failed < <(mocha_counts test-artifacts/mocha-chaos.log)
if [ "$chaos_status" -ne 0 ] && [ "$chaos_failed" -eq 0 ]; then chaos_failed=1; fi
passed=$((passed + chaos_passed + vitest_passed)); failed=$((failed + chaos_failed + vitest_failed))
# The browser tests' accessibility checks (test/support/browser.ts expectAccessible), in one line.
node -e '
  const fs = require("fs");
  const lines = fs.existsSync("test-artifacts/axe-checks.jsonl") ? fs.readFileSync("test-artifacts/axe-checks.jsonl", "utf8").trim().split("\n").filter(Boolean).map(JSON.parse) : [];
  const paths = new Set(lines.map((l) => l.path.replace(/\/\d+(?=\/|$)/g, "/:id")));
  console.log(`axe (WCAG 2.1 A/AA): ${lines.length} page states checked on ${paths.size} routes, ${lines.reduce((n, l) => n + l.violations, 0)} violations`);
' || true
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
