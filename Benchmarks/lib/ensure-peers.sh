#!/usr/bin/env bash
# Installs the tools the benchmarks compare against, when missing.
set -euo pipefail
need_apt=()
command -v vips >/dev/null || need_apt+=(libvips-tools)
command -v vipsthumbnail >/dev/null || need_apt+=(libvips-tools)
command -v djpeg >/dev/null || need_apt+=(libjpeg-turbo-progs)
command -v dwebp >/dev/null || need_apt+=(webp)
[ -x /usr/bin/time ] || need_apt+=(time)
command -v gifsicle >/dev/null || need_apt+=(gifsicle)
command -v pngquant >/dev/null || need_apt+=(pngquant)
command -v xz >/dev/null || need_apt+=(xz-utils)
command -v curl >/dev/null || need_apt+=(curl)
convert -version 2>/dev/null | grep -q ImageMagick || need_apt+=(imagemagick)
if [ "${#need_apt[@]}" -gt 0 ]; then
    sudo_cmd=(); [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}" >&2
fi
python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy >&2
