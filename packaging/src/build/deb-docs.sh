#!/usr/bin/env bash
# Writes what the Debian package's /usr/share/doc holds besides the copyright: its changelog in
# Debian's format, compressed as Debian wants it (gzip -9n: no name or time, so the same bytes
# every build), the project's README, CHANGELOG and documentation pages (docs/).
#
# usage: deb-docs.sh STAGING MAVEN_VERSION
set -euo pipefail
out=$1/deb-doc
version=${2/-SNAPSHOT/~SNAPSHOT}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$src/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
sed "s/@VERSION@/$version/" "$src/deb/files/changelog" | gzip -9n >"$out/changelog.gz"
cp "$root/README.md" "$root/CHANGELOG.md" "$out/"
# the documentation site's pages, as Markdown (BENCHMARKS.md, a link in the tree, copied as a file)
cp -rL "$root/docs" "$out/docs"
