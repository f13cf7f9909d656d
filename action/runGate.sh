#!/usr/bin/env bash
# The steps of the contract-gate Action (action.yml): runs `contract-gate run`, appends the matrix to the step
# summary and sets the outputs verdict, failed, flaky and report-path; exits with the gate's exit code.
# Inputs arrive as INPUT_CONFIG, INPUT_PROJECT, INPUT_TARGET, INPUT_CONTRACT (one per line) and INPUT_ARGS; the
# token as CONTRACT_GATE_TOKEN, which the gate is told the NAME of (--token-env), so it is on no command line.
# INPUT_CACHE_DIR, when set, is the validator cache the Action restores and saves: the output cache-written counts the
# entries this run wrote or marked used, so that the cache is saved only when it changed.
# Runs locally too: point GITHUB_OUTPUT and GITHUB_STEP_SUMMARY at files (both optional).
set -uo pipefail

args=(run)
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_PROJECT:-}" ] && args+=(--project "$INPUT_PROJECT")
[ -n "${INPUT_TARGET:-}" ] && args+=(--target "$INPUT_TARGET")
while IFS= read -r contract; do
  [ -n "$contract" ] && args+=(--contract "$contract")
done <<< "${INPUT_CONTRACT:-}"
[ -n "${CONTRACT_GATE_TOKEN:-}" ] && args+=(--token-env CONTRACT_GATE_TOKEN)
if [ -n "${INPUT_ARGS:-}" ]; then
  # Split as a shell would (quotes respected) without evaluating anything.
  mapfile -t extra < <(printf '%s' "$INPUT_ARGS" | xargs printf '%s\n')
  args+=("${extra[@]}")
fi

log=$(mktemp)
marker=$(mktemp)
trap 'rm -f "$log" "$marker"' EXIT
cache_dir="${INPUT_CACHE_DIR:-}"
[ -n "$cache_dir" ] && export CONTRACT_GATE_CACHE_DIR="$cache_dir"
# Entries are written once and touched when used on a later day: what is newer than the marker changed in this run.
touch "$marker"
# The matrix reporter appends to the step summary when it may; here the summary is written once, below.
GITHUB_STEP_SUMMARY='' npx --no-install contract-gate "${args[@]}" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}

# The gate's first line names the report folder: "contract-gate: target …; seed …; report DIR".
report=$(sed -n 's/^contract-gate: target .*; report \(.*\)$/\1/p' "$log" | tail -n 1)
written=0
if [ -n "$cache_dir" ] && [ -d "$cache_dir" ]; then
  written=$(find "$cache_dir" -maxdepth 1 -name '*.cjs' -newer "$marker" | wc -l)
fi
verdict=error
failed=0
flaky=0
if [ -n "$report" ] && [ -f "$report/matrix.json" ]; then
  read -r verdict failed flaky < <(node -e '
    const matrix = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    const s = matrix.summary;
    const verdict = matrix.verdict === "fail" ? "fail" : s.notRun > 0 ? "incomplete" : "pass";
    process.stdout.write(`${verdict} ${s.fail + s.stale} ${s.flaky ?? 0}\n`);
  ' "$report/matrix.json")
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$report/matrix.md" ]; then
    cat "$report/matrix.md" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "verdict=$verdict"
    echo "failed=$failed"
    echo "flaky=$flaky"
    echo "report-path=$report"
    echo "cache-written=$written"
  } >> "$GITHUB_OUTPUT"
fi
echo "contract-gate action: verdict $verdict, $failed failed, $flaky flaky, report ${report:-none}${cache_dir:+, $written validator cache entries written} (exit $code)"
exit "$code"
