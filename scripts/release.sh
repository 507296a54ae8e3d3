#!/usr/bin/env bash
# Builds the release binaries of mcphost for Linux, macOS and Windows on
# amd64 and arm64, with the version, commit and date stamped into them
# (see the version package), and their SHA256SUMS, into dist/VERSION/.
#
#   scripts/release.sh v1.2.3     # the version being released (a git tag)
#   scripts/release.sh            # git describe: e.g. v1.2.3-4-g0123abc
#
# The binaries are static (CGO_ENABLED=0) and reproducible: -trimpath, and
# the date is the commit's, not the build's.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v go >/dev/null || { echo "release.sh: Go is not installed (https://go.dev/dl/)" >&2; exit 1; }
version="${1:-$(git describe --tags --always --dirty)}"
case "$version" in
  *[!A-Za-z0-9._+-]*|'') echo "release.sh: version \"$version\" may only hold letters, digits and . _ + -" >&2; exit 2 ;;
esac
commit=$(git rev-parse HEAD)
date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release.sh: warning: the working tree has uncommitted changes; the binaries say so" >&2
fi

out="dist/$version"
rm -rf "$out"
mkdir -p "$out"
pkg=github.com/mcphost/mcphost/internal/version
ldflags="-s -w -X $pkg.version=$version -X $pkg.commit=$commit -X $pkg.date=$date"
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  goos=${target%/*} goarch=${target#*/}
  name="mcphost-$version-$goos-$goarch"
  [ "$goos" = windows ] && name="$name.exe"
  echo "== $name"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "$ldflags" -o "$out/$name" .
done

cd "$out"
if command -v sha256sum >/dev/null; then
  sha256sum mcphost-* > SHA256SUMS
else
  shasum -a 256 mcphost-* > SHA256SUMS # macOS
fi
echo "== $out"
cat SHA256SUMS
