#!/bin/bash
# A mutool for the suite (issue 37): the first `mutool run` worker dies of SIGSEGV on the first
# render it is asked for, as Debian's mutool 1.21 did after some request orders; the marker file
# `crashed` beside this script records it. Every other call is the real /usr/bin/mutool.
here="$(cd "$(/usr/bin/dirname "$0")" && pwd)"
if [ "$1" != run ] || [ -e "$here/crashed" ]; then exec /usr/bin/mutool "$@"; fi
coproc REAL { /usr/bin/mutool "$@" 2>&1; }
while IFS= read -r line; do
    case "$line" in
        # A request is its nonce, then the command: `<nonce>\trender\t…`.
        *$'\t'render$'\t'*) /usr/bin/touch "$here/crashed"; kill -SEGV $$ ;;
    esac
    printf '%s\n' "$line" >&"${REAL[1]}"
    while IFS= read -r answer <&"${REAL[0]}"; do
        printf '%s\n' "$answer"
        # The answer ends the request; `opened` (the document is open) comes before it.
        [[ "$answer" == $'\x01'* && "$answer" != *' opened' ]] && break
    done
done
