#!/bin/sh
# Writes what a site ships from the readable sources in Web/, minified by esbuild: sift.js (the
# search bar's modules in one file, importing ./sift-core.js), sift-core.js, the modules loaded on
# demand (sift-answers.js, sift-ranked.js, sift-facets.js, sift-facet-bar.js, sift-marks.js, sift-typos.js, sift-excerpts.js,
# sift-excerpt-view.js, sift-empty-state.js) and sift.css, into the
# folder given (default Sources/SiftKit/Resources, which `swift build` compiles into sift).
# `make js` runs it; Tests/js/shipped.test.mjs runs it into a temporary folder and compares.
set -eu
web=$(dirname "$0")
out=${1:-$web/../Sources/SiftKit/Resources}
# The shipped files were written by Debian 12's esbuild; another version may write other bytes.
expected=0.17.0
version=$(esbuild --version)
[ "$version" = "$expected" ] || echo "Web/build.sh: esbuild $version, not $expected: the output may differ from the shipped files" >&2
# --charset=utf8: “quotes” and · as they are, not as \u escapes.
flags="--minify --charset=utf8 --log-level=warning"
# The files a page loads only when it needs them (facets, arrival marks, typo matching, excerpts, the empty state) stay apart, imported by
# their names beside these.
lazy="--external:./sift-core.js --external:./sift-facets.js --external:./sift-facet-bar.js --external:./sift-marks.js --external:./sift-typos.js --external:./sift-excerpts.js --external:./sift-excerpt-view.js --external:./sift-empty-state.js --external:./sift-answers.js --external:./sift-ranked.js"
for name in sift sift-core sift-answers sift-ranked sift-facets sift-facet-bar sift-marks sift-typos sift-excerpts sift-excerpt-view sift-empty-state; do
  esbuild "$web/$name.js" --bundle --format=esm $lazy $flags --outfile="$out/$name.js"
done
esbuild "$web/sift.css" $flags --outfile="$out/sift.css"
