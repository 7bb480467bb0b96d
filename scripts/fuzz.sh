#!/usr/bin/env bash
# Runs cargo-fuzz targets (rustup's nightly toolchain and cargo-fuzz needed:
# `cargo install cargo-fuzz`). Corpora live in fuzz/corpus/<target> (not
# committed); they are seeded from tests/fixtures and the small files of the
# shared corpus, so a fresh run starts from real traces.
#
#   scripts/fuzz.sh                     every target, 600 s each, one at a time
#   scripts/fuzz.sh parse_openai 60     one target for 60 s
#   FUZZ_JOBS=2 scripts/fuzz.sh         two targets at a time
#
# Findings land in fuzz/artifacts/<target>/; reproduce one with
#   cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS="fast_vs_exact parse_forced parse_auto parse_files json_split query render_legacy render_current"
targets="${1:-$ALL_TARGETS}"
seconds="${2:-600}"
jobs="${FUZZ_JOBS:-1}"
corpus_root="${ATV_CORPUS:-$(pwd)/../shared/corpus}"

seed() {
  local target=$1 dir=fuzz/corpus/$1
  [ -d "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
  mkdir -p "$dir"
  case $target in
    parse_forced | fast_vs_exact)
      # The first byte picks the format (its index in the registry): each
      # format's fixtures, prefixed with its index.
      local i=0 id f
      for id in $format_ids; do
        for f in $(find "tests/fixtures/$id" -type f -size -16k 2>/dev/null); do
          { printf "\\$(printf '%03o' "$i")"; cat "$f"; } > "$dir/$id-$(basename "$f")"
        done
        i=$((i + 1))
      done
      return 0 ;;
    parse_files) find tests/fixtures/openhands -type f -size -16k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
    render_legacy | render_current) find tests/golden/agentrun-text -type f -size -16k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
    *) find tests/fixtures -type f -size -16k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
  esac
  if [ -d "$corpus_root" ]; then
    find "$corpus_root" -type f -size -16k ! -name INDEX.md -exec cp -t "$dir" {} + 2>/dev/null || true
  fi
  if [ "$target" = query ]; then
    # Queries alone run against the target's built-in trace.
    printf '%s' 'role:assistant -kind:tool-result "exact phrase" word' > "$dir/q1"
    printf '%s' 'tool:get_inbox is:error has:tool_calls' > "$dir/q2"
    printf '%s' '-role:tool kind:message http://x "unterminated' > "$dir/q3"
    # Lone regexes: the target holds them to regex-lite over every event (the prefilter).
    printf '%s' '/get_(inbox|search)\b/' > "$dir/q4"
    printf '%s' '/(?-i)İstanbul|Boom|lunch"?/' > "$dir/q5"
    printf '%s' '/fail+(?i)?ed{1,}|x[^a]y/' > "$dir/q6"
  fi
}

run() {
  local target=$1
  seed "$target"
  mkdir -p "fuzz/artifacts/$target" fuzz/logs
  echo "== $target: ${seconds}s"
  # The binary directly: `cargo fuzz run` would rebuild (and wait for the
  # build lock) whenever a source file changed since the build below.
  "$bin_dir/$target" "fuzz/corpus/$target" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target/" \
    > "fuzz/logs/$target.log" 2>&1 && status=ok || status="FAILED (see fuzz/logs/$target.log)"
  grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "fuzz/logs/$target.log" | tail -2 || true
  echo "== $target: $status"
}

cargo +nightly fuzz build >/dev/null
# The registry's format ids, in order (parse_forced and fast_vs_exact pick one by index).
format_ids=$(cargo run -q --bin agent-trace-viewer -- formats | cut -f1)
bin_dir=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release
running=0
for t in $targets; do
  run "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
