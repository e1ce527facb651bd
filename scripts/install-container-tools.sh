#!/usr/bin/env bash
# Installs what `npm run test:container` needs on a Debian host (Podman and the tools that build the
# stand-in base images) and the two Podman settings without which no container starts on a host
# like our CI's. Safe to run again: it installs only what is missing and rewrites one file of its own.
set -euo pipefail

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		echo "need root to run: $*" >&2
		return 1
	fi
}

packages=(podman buildah runc fuse-overlayfs uidmap slirp4netns aardvark-dns mmdebstrap podman-compose)
missing=()
for package in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "Installing ${missing[*]} from apt..."
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# A drop-in file rather than an edit of containers.conf: it is ours alone, so writing it again
# changes nothing, and removing it undoes the set-up.
# - runc: crun 1.8 (Debian 12) refuses a hybrid cgroup layout, which CI machines have.
# - default_ulimits: Podman raises the open-file limit by default, which needs CAP_SYS_RESOURCE;
#   root in a CI sandbox often lacks it, and then no container starts.
settings_file=/etc/containers/containers.conf.d/50-atelier.conf
settings='# Written by Atelier'"'"'s scripts/install-container-tools.sh.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]

[engine]
runtime = "runc"'
if [ ! -f "$settings_file" ] || [ "$(cat "$settings_file")" != "$settings" ]; then
	as_root mkdir -p "$(dirname "$settings_file")"
	printf '%s\n' "$settings" | as_root tee "$settings_file" >/dev/null
	echo "Wrote $settings_file"
fi

podman --version
