#!/usr/bin/env bash
# scripts/install-deps.sh: install the Debian 12 packages stiffkit builds, tests and benchmarks with
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
PACKAGES=(build-essential cmake pkg-config git
  libsundials-dev libsuitesparse-dev libmetis-dev libhypre-dev libopenmpi-dev openmpi-bin
  libyaml-dev libmuparser-dev libjansson-dev libcsv-dev libhdf5-dev hdf5-tools
  python3 python3-numpy python3-scipy python3-matplotlib python3-h5py time clang-format-14 valgrind
  slurmctld slurmd slurm-client munge)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
