#!/usr/bin/env bash
# The steps of Tessera's GitHub Action (action.yml at the repository's root), one subcommand each:
#
#   tessera-action.sh resolve|install|build|report|publish|verdict
#
# action.yml passes its inputs as IN_* environment variables (never spliced into the script text)
# and each step writes its outputs to $GITHUB_OUTPUT. scripts/test-docs.py runs these steps as
# GitHub would, from docs/ci.md's recipe, against a real `tessera serve`.
set -euo pipefail

say() { echo "tessera-action: $*" >&2; }
die() { echo "::error title=Tessera action::$*" >&2; exit 1; }
output() { echo "$1=$2" >> "$GITHUB_OUTPUT"; }
truthy() { case "${1,,}" in true|yes|1|on) return 0 ;; *) return 1 ;; esac; }

# apt-get as root (sudo on a hosted runner, nothing in a root container), installing only the
# packages that are missing; `apt-get update` only when an install from the current lists fails.
apt_install() {
    local missing=() package
    for package in "$@"; do
        if [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null)" != "ii " ]; then
            missing+=("$package")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    say "installing ${missing[*]}"
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
        "${sudo[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# Which release: the URL (input, else $TESSERA_RELEASE_URL, else this action's repository's GitHub
# release of the version), its version, and the folder and cache key it is kept under.
resolve() {
    [ "$(uname -s)" = Linux ] || die "Tessera's release runs on Linux runners only (this is $(uname -s))"
    local arch version url
    arch=$(uname -m)
    version=${IN_VERSION#v}
    url=${IN_RELEASE_URL:-${TESSERA_RELEASE_URL:-}}
    if [ -z "$url" ]; then
        [ -n "${ACTION_REPOSITORY:-}" ] || die "no release-url input and no TESSERA_RELEASE_URL: where is the release tarball? (a local action has no repository to take the release from)"
        url="${ACTION_SERVER_URL:-https://github.com}/$ACTION_REPOSITORY/releases/download/v$version/tessera-$version-linux-$arch.tar.gz"
    fi
    # The tarball's own name says its version (tessera-X.Y.Z-linux-ARCH.tar.gz).
    if [[ "${url##*/}" =~ ^tessera-([0-9][^-]*)-linux- ]]; then
        version=${BASH_REMATCH[1]}
    fi
    local digest
    digest=$(printf '%s' "$url" | sha256sum | cut -c1-12)
    output url "$url"
    output version "$version"
    output key "tessera-$version-linux-$arch-$digest"
    output dir "$HOME/.tessera/$version-$digest"
}

install() {
    local dir=$RELEASE_DIR
    if [ ! -x "$dir/bin/tessera" ]; then
        command -v curl >/dev/null || apt_install ca-certificates curl
        local tarball
        tarball=$(mktemp "${RUNNER_TEMP:-/tmp}/tessera-XXXXXX.tar.gz")
        say "downloading $RELEASE_URL"
        curl -fsSL --retry 3 -o "$tarball" "$RELEASE_URL"
        if [ -n "${IN_SHA256:-}" ]; then
            echo "$IN_SHA256  $tarball" | sha256sum --check --quiet - || die "the release at $RELEASE_URL is not the one whose SHA-256 is $IN_SHA256"
        fi
        rm -rf "$dir.partial" && mkdir -p "$dir.partial"
        tar -xzf "$tarball" -C "$dir.partial" --strip-components=1
        rm -f "$tarball"
        rm -rf "$dir" && mv "$dir.partial" "$dir"
    else
        say "$dir/bin/tessera is there already (cached)"
    fi
    if truthy "$IN_INSTALL_PACKAGES"; then
        # shellcheck disable=SC2046
        apt_install $(grep -v '^#' "$dir/runtime-packages.txt") \
            || die "apt-get could not install the release's runtime-packages.txt, which names Debian 12 packages: on another distribution install their equivalents and set install-packages: false, or run the job in a debian:12 container"
    fi
    echo "$dir/bin" >> "$GITHUB_PATH"
    "$dir/bin/tessera" version
    output tessera "$dir/bin/tessera"
}

build() {
    local args=()
    # run-args is split into words like a command line (--cache .tessera-cache --jobs 4).
    [ -z "${IN_RUN_ARGS:-}" ] || read -r -a args <<< "$IN_RUN_ARGS"
    output dir "$IN_OUTPUT"
    # Built against the same base the report compares with, the run annotates only the files the
    # change added or edited (docs/ci.md); a missing base is said once, by the report step.
    local base=""
    if [ -n "${IN_AGAINST:-}" ] && truthy "${IN_REPORT:-true}"; then
        base=$(QUIET_BASE=1 base_of "$IN_AGAINST")
    fi
    [ -z "$base" ] || args+=(--against "$base")
    "$TESSERA" run "$IN_PIPELINE" --input "$IN_INPUT" --output "$IN_OUTPUT" --progress "$IN_PROGRESS" "${args[@]}"
}

# The base to compare against, as `tessera report --against` takes it; empty when there is none.
# A URL is fetched first: an answer of 404 (the channel or file does not exist yet, as before the
# main branch's first publish) means no base; a path must hold a manifest.json (a downloaded
# artifact's folder may hold the build one level down).
base_of() {
    local against=$1
    if [[ "$against" =~ ^https?:// ]]; then
        local url=$against code
        [[ "$url" =~ /v1/channels/[^/]+/?$ ]] && url="${url%/}/manifest"
        code=$(curl -sS -o /dev/null -w '%{http_code}' --retry 2 "$url") || die "cannot reach $url"
        case "$code" in
            200) echo "$against" ;;
            404) missing_base "$url answered HTTP 404" ;;
            *) die "$url answered HTTP $code" ;;
        esac
    elif [ -f "$against" ]; then
        echo "$against"
    elif [ -f "$against/manifest.json" ]; then
        echo "$against"
    elif [ -d "$against" ]; then
        local found
        found=$(find "$against" -mindepth 2 -maxdepth 3 -name manifest.json | sort)
        case $(printf '%s' "$found" | grep -c .) in
            1) echo "$found" ;;
            0) missing_base "$against holds no manifest.json" ;;
            *) die "$against holds more than one manifest.json: ${found//$'\n'/, }" ;;
        esac
    else
        missing_base "$against does not exist"
    fi
}

missing_base() {
    [ -z "${QUIET_BASE:-}" ] || return 0
    if truthy "$IN_REQUIRE_BASE"; then
        die "no previous build to compare against: $1"
    fi
    echo "::warning title=Tessera size report::no previous build to compare against ($1): the report has no changes and growth budgets are not checked" >&2
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        printf '> **No previous build to compare against** (%s): no changes are shown and growth budgets are not checked.\n\n' "$1" >> "$GITHUB_STEP_SUMMARY"
    fi
}

report() {
    local build=$IN_OUTPUT base="" args=()
    local folder=${IN_REPORT_OUTPUT:-$build}
    if [ -n "$IN_REPORT_OUTPUT" ]; then
        args+=(--output "$IN_REPORT_OUTPUT")
    fi
    if [ -n "$IN_AGAINST" ]; then
        base=$(base_of "$IN_AGAINST")
    fi
    if [ -n "$base" ]; then
        args+=(--against "$base")
    fi
    local name value
    for name in install pack total asset tag; do
        value=IN_MAX_${name^^}
        if [ -n "${!value:-}" ]; then
            args+=("--max-$name" "${!value}")
        fi
    done
    # Growth budgets need a base: without one (warned above) they are not passed.
    for name in install pack asset; do
        value=IN_MAX_${name^^}_GROWTH
        if [ -n "${!value:-}" ] && [ -n "$base" ]; then
            args+=("--max-$name-growth" "${!value}")
        fi
    done
    # So does the update budget: an update is from the base.
    if [ -n "${IN_MAX_UPDATE:-}" ] && [ -n "$base" ]; then
        args+=(--max-update "$IN_MAX_UPDATE")
    fi
    output base "$base"
    output dir "$(realpath -m "$folder")"
    output markdown "$(realpath -m "$folder/size-report.md")"
    local status=0
    "$TESSERA" report "$build" "${args[@]}" || status=$?
    output status "$status"
    output over-budget "$([ "$status" -eq 3 ] && echo true || echo false)"
    # The step succeeds so that publishing and the artifact still happen; `verdict` fails the job.
}

publish() {
    local server=${IN_SERVER:-${TESSERA_SERVER:-}} args=()
    [ -n "$server" ] || die "publish-channel is set but no server input (or TESSERA_SERVER) says where to publish"
    export TESSERA_TOKEN=${IN_TOKEN:-${TESSERA_TOKEN:-}}
    [ -n "$TESSERA_TOKEN" ] || die "publishing needs the server's token: the token input or TESSERA_TOKEN"
    [ -z "${IN_PUBLISH_ARGS:-}" ] || read -r -a args <<< "$IN_PUBLISH_ARGS"
    "$TESSERA" publish "$IN_OUTPUT" --server "$server" --channel "$IN_PUBLISH_CHANNEL" "${args[@]}"
    output published true
}

verdict() {
    case "${REPORT_STATUS:-0}" in
        0) ;;
        3) echo "::error title=Tessera size budget::over budget: the job summary says what grew (size-report.md, size-report.html)"
           exit 3 ;;
        *) echo "::error title=Tessera size report::tessera report exited $REPORT_STATUS"
           exit "$REPORT_STATUS" ;;
    esac
}

case "${1:-}" in
    resolve|install|build|report|publish|verdict) "$1" ;;
    *) echo "usage: $0 resolve|install|build|report|publish|verdict" >&2; exit 2 ;;
esac
