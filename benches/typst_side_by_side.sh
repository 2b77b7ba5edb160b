#!/usr/bin/env bash
# Typst side by side: `safari build` against Typst alone on the same documents with the same
# data, run alternately; prints the median times and their ratios (docs/performance.md).
#
#   benches/typst_side_by_side.sh [GAME_DIR]      (default: content/safari-zone)
#
# Typst alone is the `typst` package from PyPI, which bundles Typst 0.15.1 (the version in
# Cargo.lock): install it once with
#
#   python3 -m venv .venv-typst && .venv-typst/bin/pip install typst==0.15.2
#
# (the script uses .venv-typst/bin/python when it exists, else $TYPST_PYTHON or python3).
#
# 1. `safari build --emit-typst` writes each print document as a Typst project (into
#    out/<game>/typst/, here under a temporary --out): the
#    templates, the data safari passes as `sys.inputs` (as JSON files), the game's files and
#    the fonts safari typesets with (backends/print/emit.rs).
# 2. benches/typst_alone.py compiles them to the same PDFs and PNG previews; with CHECK=1 (the
#    default) it first holds them to what `safari build` writes: PDFs equal but for their /ID,
#    previews equal pixel for pixel (this check takes a minute: its PNG decoder is Python).
# 3. benches/alternate.py runs, RUNS times each (default 15), alternately:
#      safari-print   safari build GAME --only sheet,deck,dice (PDFs and previews)
#      typst-alone    the same documents, one after another in one Python process
#      typst-alone-2  the same, spread over two processes (safari typesets in parallel)
#      typst-pdf-only Typst alone without the previews: its compile and PDF export alone
#      safari-all     safari build GAME: also ruleset.json and the Tabletop Simulator export
#    and prints medians, quartiles, and ratios of medians to safari-print.
#    BASELINE=path/to/another/safari adds baseline-print, the same build by that binary (a
#    copy of target/release/safari from before a change), for a before/after side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${1:-content/safari-zone}
RUNS=${RUNS:-15}
CHECK=${CHECK:-1}
if [[ -x .venv-typst/bin/python ]]; then
    PYTHON=${TYPST_PYTHON:-.venv-typst/bin/python}
else
    PYTHON=${TYPST_PYTHON:-python3}
fi
if ! "$PYTHON" -c "import typst" 2>/dev/null; then
    echo "Typst alone needs the typst package (Typst 0.15): pip install typst==0.15.2" >&2
    exit 1
fi
cargo build --release --quiet
SAFARI=target/release/safari
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$SAFARI" build "$GAME" --only sheet,deck,dice --emit-typst --out "$WORK/emitted" -q
ln -s "$WORK"/emitted/*/typst "$WORK/typst"
if [[ $CHECK == 1 ]]; then
    "$SAFARI" build "$GAME" --only sheet,deck,dice --out "$WORK/check" -q
    "$PYTHON" benches/typst_alone.py "$WORK/typst" --compare "$WORK/check"/*
fi
commands=(
    "safari-print=$SAFARI build $GAME --only sheet,deck,dice --out $WORK/print -q"
    "typst-alone=$PYTHON benches/typst_alone.py $WORK/typst"
    "typst-alone-2=$PYTHON benches/typst_alone.py $WORK/typst --jobs 2"
    "typst-pdf-only=$PYTHON benches/typst_alone.py $WORK/typst --no-previews"
    "safari-all=$SAFARI build $GAME --out $WORK/all -q"
)
if [[ -n ${BASELINE:-} ]]; then
    commands+=("baseline-print=$BASELINE build $GAME --only sheet,deck,dice --out $WORK/baseline -q")
fi
"$PYTHON" benches/alternate.py --runs "$RUNS" --warmup 1 "${commands[@]}"
