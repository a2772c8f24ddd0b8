#!/usr/bin/env bash
# `npm test`: type check, build the SPA (the browser tests use it), run every mocha test, and end
# with one line of its own: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-artifacts
npm run typecheck || { echo "0 passed, 1 failed"; exit 1; }
npm run build -w web >test-artifacts/web-build.log 2>&1 || { cat test-artifacts/web-build.log; echo "0 passed, 1 failed"; exit 1; }
tail -n 5 test-artifacts/web-build.log
npx mocha --reporter spec --reporter-option maxDiffSize=4000 "$@" 2>&1 | tee test-artifacts/mocha.log
status=${PIPESTATUS[0]}
passed=$(grep -Eo '^ +[0-9]+ passing' test-artifacts/mocha.log | grep -Eo '[0-9]+' | tail -1)
failed=$(grep -Eo '^ +[0-9]+ failing' test-artifacts/mocha.log | grep -Eo '[0-9]+' | tail -1)
passed=${passed:-0}; failed=${failed:-0}
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "${passed} passed, ${failed} failed"
[ "$status" -eq 0 ] && [ "$passed" -gt 0 ]
