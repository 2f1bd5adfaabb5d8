# Sourced first by the CLI test scripts: $here (this directory, for the helpers beside it) and the
# failure count. bad MESSAGE prints a failure and counts it; a script ends with exit $(( fails > 0 )).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
