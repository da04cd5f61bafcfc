#!/usr/bin/env bash
# Reproduce the real-app measurements.
#   ./run.sh extract            copy the asset folders out of the fetched mirrors into src/
#   ./run.sh run [after|before] [APP...]   run tessera (default: both binaries, every app)
#   ./run.sh measure            write results/<app>-<which>.json with measure.py
# Apps and inputs are listed in APPS below. Nothing outside /work/realapps is written.
set -u
R=${REALAPPS:-/work/realapps}
M=${MIRRORS:-/work/.mirror}
AFTER_BIN=${AFTER_BIN:-/work/rel/.build/release/tessera}
BEFORE_BIN=${BEFORE_BIN:-/work/base/.build/release/tessera}

# app | kind | input (relative to $R/src) | mirror
APPS=(
  "mastodon-root|apple|mastodon-ios|mastodon+mastodon-ios"
  "mastodon-catalog|apple|mastodon-ios/MastodonSDK/Sources/MastodonAsset/Assets.xcassets|mastodon+mastodon-ios"
  "swiftfin|apple|swiftfin|jellyfin+Swiftfin"
  "newpipe|android|newpipe/app/src/main/res|TeamNewPipe+NewPipe"
  "netnewswire|apple|netnewswire|Ranchero-Software+NetNewsWire"
  "pocketcasts|apple|pocketcasts/podcasts|Automattic+pocket-casts-ios"
)

pipeline() { # which kind
  case "$1/$2" in
    after/apple) echo /work/rel/Pipelines/app-thinning.yml ;;
    after/android) echo /work/rel/Pipelines/android.yml ;;
    before/apple) echo /work/base/Pipelines/app-thinning.yml ;;
    before/android) echo /work/base/Pipelines/android-densities.yml ;;
  esac
}

extract() {
  mkdir -p $R/src && cd $R/src || exit 1
  x() { local app=$1 g=$M/$2/repo; shift 2; rm -rf "$app"; mkdir -p "$app"
        git -C "$g" archive HEAD -- "$@" | tar -x -C "$app"; }
  catalogs() { git -C "$M/$1/repo" ls-tree -r -d --name-only HEAD | grep -E "$2"; }
  mapfile -t P < <(catalogs mastodon+mastodon-ios '\.(xcassets|iconset)$'); x mastodon-ios mastodon+mastodon-ios "${P[@]}"
  mapfile -t P < <(catalogs jellyfin+Swiftfin '\.(xcassets|iconset)$'); x swiftfin jellyfin+Swiftfin "${P[@]}"
  x newpipe TeamNewPipe+NewPipe app/src/main/res
  mapfile -t P < <(catalogs Ranchero-Software+NetNewsWire '\.(xcassets|iconset)$'); x netnewswire Ranchero-Software+NetNewsWire "${P[@]}"
  mapfile -t P < <(catalogs Automattic+pocket-casts-ios '^podcasts/[^/]*\.(xcassets|iconset)$'); x pocketcasts Automattic+pocket-casts-ios "${P[@]}"
  for m in mastodon+mastodon-ios jellyfin+Swiftfin TeamNewPipe+NewPipe Ranchero-Software+NetNewsWire Automattic+pocket-casts-ios; do
    echo "$m $(git -C $M/$m/repo log -1 --format=%H)"
  done > $R/commits.txt
}

run() {
  local which=$1; shift
  local bin; [ "$which" = after ] && bin=$AFTER_BIN || bin=$BEFORE_BIN
  mkdir -p $R/out $R/logs
  for e in "${APPS[@]}"; do
    IFS='|' read -r app kind input mirror <<<"$e"
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$app"; then continue; fi
    local out=$R/out/$app-$which log=$R/logs/$app-$which.log tf=$R/logs/$app-$which.time
    rm -rf "$out"
    echo "== $app $which: $bin run $(pipeline $which $kind) --input $R/src/$input --output $out --no-cache"
    /usr/bin/time -v -o "$tf" "$bin" run "$(pipeline $which $kind)" --input "$R/src/$input" --output "$out" --no-cache > "$log" 2>&1
    echo "rc=$? $(grep -E 'Elapsed|Maximum resident' "$tf" | tr -s ' ' | tr '\n' ' ')"
  done
}

measure() {
  mkdir -p $R/results
  for which in after before; do
    for e in "${APPS[@]}"; do
      IFS='|' read -r app kind input mirror <<<"$e"
      [ -f $R/logs/$app-$which.time ] || continue
      python3 $R/measure.py "$kind" "$R/src/$input" "$R/out/$app-$which" "$R/logs/$app-$which.log" \
        "$R/logs/$app-$which.time" > $R/results/$app-$which.json
    done
  done
  # AFTER query for mastodon (repository root)
  $AFTER_BIN query $R/out/mastodon-root-after/manifest.json --device iPhone18,2 > $R/logs/mastodon-root-after.query 2>&1
  echo "query rc=$?" >> $R/logs/mastodon-root-after.query
}

timing() { # N more alternating passes (after, before) into the same output folders; times in logs/*.time.N
  local n=${1:-3}
  for i in $(seq $n); do
    for which in after before; do
      local bin; [ "$which" = after ] && bin=$AFTER_BIN || bin=$BEFORE_BIN
      for e in "${APPS[@]}"; do
        IFS='|' read -r app kind input mirror <<<"$e"
        /usr/bin/time -v -o "$R/logs/$app-$which.time.$i" "$bin" run "$(pipeline $which $kind)" --input "$R/src/$input" \
          --output "$R/out/$app-$which" --no-cache > /dev/null 2>&1
      done
    done
  done
}

cmd=${1:-all}; shift || true
case "$cmd" in
  extract) extract ;;
  run) if [ $# -gt 0 ] && { [ "$1" = after ] || [ "$1" = before ]; }; then w=$1; shift; run $w "$@"; else run after "$@"; run before "$@"; fi ;;
  measure) measure ;;
  timing) timing "$@" ;;
  all) extract; run after; run before; timing 3; measure ;;
esac
