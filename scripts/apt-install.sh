#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed
# yet (apt-get, as root; apt-get update first only when the install fails
# for want of a package list). Without root it names the command to run.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "apt-install: install the Debian packages ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "apt-install: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
