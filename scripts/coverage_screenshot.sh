#!/usr/bin/env bash
# A screenshot of a coverage report's page (tcu run --coverage DIR, or
# scripts/coverage.sh's coverage/), rendered headlessly by wkhtmltoimage
# (Debian's wkhtmltopdf: scripts/setup.sh --full) under Xvfb.
# Usage: scripts/coverage_screenshot.sh [DIR] [OUT.png]   (coverage/, docs/coverage-report.png)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-coverage}
png=${2:-docs/coverage-report.png}
if ! command -v wkhtmltoimage >/dev/null; then
  echo "coverage_screenshot: wkhtmltoimage not found: run scripts/setup.sh --full" >&2
  exit 2
fi
if [ ! -f "$dir/html/index.html" ]; then
  echo "coverage_screenshot: $dir/html/index.html: no report (run scripts/coverage.sh)" >&2
  exit 2
fi
xvfb-run -a wkhtmltoimage --quiet --width 1400 --height 1000 --quality 85 \
  "$dir/html/index.html" "$png"
echo "coverage_screenshot: $png"
