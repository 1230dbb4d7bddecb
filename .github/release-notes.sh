#!/usr/bin/env bash
# Print the release notes of one version: the body of CHANGELOG.md's section `## [VERSION] …`, without its heading
# and without the blank lines around it. Fails (status 1, and says why on stderr) when the file has no such section
# or the section is empty, so that a release is never published with no notes or another version's.
#
#     .github/release-notes.sh 0.3.0 [CHANGELOG.md]      # or v0.3.0, as the tag names it
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 VERSION [CHANGELOG]" >&2
    exit 1
fi
version=${1#v}
changelog=${2:-CHANGELOG.md}
if [ ! -r "$changelog" ]; then
    echo "$0: cannot read $changelog" >&2
    exit 1
fi
status=0
awk -v heading="## [$version]" '
    # A level-2 heading ends the section being printed; the one for this version (its bracket closed, so that
    # 0.3.0 is not 0.3.0-rc.1) starts it.
    index($0, "## ") == 1 {
        if (found) exit
        if (index($0, heading) == 1) found = 1
        next
    }
    found { lines[++n] = $0 }
    END {
        first = 1
        while (first <= n && lines[first] ~ /^[[:space:]]*$/) first++
        last = n
        while (last >= first && lines[last] ~ /^[[:space:]]*$/) last--
        for (i = first; i <= last; i++) print lines[i]
        if (!found) exit 10
        if (last < first) exit 11
    }
' "$changelog" || status=$?
case $status in
    0) ;;
    10) echo "$0: $changelog has no section '## [$version]'" >&2; exit 1 ;;
    11) echo "$0: the section '## [$version]' of $changelog is empty" >&2; exit 1 ;;
    *) exit 1 ;;
esac
