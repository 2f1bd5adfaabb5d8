# Sourced by the history tests (history_cli.sh, history_postgres.sh), with $src the source tree:
# gen OUT_DIR [OPTIONS]: a synthetic history (tools/history/synthetic_history.py) from $template;
# runs_of DIR: its run files night by night, the order a nightly job records them.
template="$src/suites/fixtures/run_h200_excerpt.json"
gen() { python3 "$src/tools/history/synthetic_history.py" "$template" "$@"; }
runs_of() { ls "$1"/r*.json | sort -t_ -k2; }
