#!/usr/bin/env bash
# The UI tests (UiTabSuite) load the Spark UI's KAE Shuffle tab in a real browser: Debian's
# chromium, headless. Part of README's test command, never of the quick start.
# What it changes on the machine, only when /usr/bin/chromium is missing and running as root:
# installs the packages chromium and fonts-liberation (so screenshots have text) with apt-get
# --no-install-recommends --no-upgrade, after a dry run shows that no installed package would be
# upgraded (otherwise it refuses and says what to do). Without it, the browser test cancels and
# says why. Set KAE_NO_INSTALL=1 to never change the machine.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
packages=(chromium fonts-liberation)
how="apt-get install --no-install-recommends --no-upgrade ${packages[*]}"
if [ "${KAE_NO_INSTALL:-}" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[kae] chromium is missing: the UI browser test will cancel. Install it with: $how" >&2
  exit 0
fi
apt-get update -qq >&2
upgrades=$(apt-get -s install --no-install-recommends --no-upgrade "${packages[@]}" |
  awk '/^Inst [^ ]+ \[/ {print $2}')
if [ -n "$upgrades" ]; then
  echo "[kae] installing chromium would upgrade installed packages ($(echo $upgrades)), which" >&2
  echo "  this build never does; the UI browser test will cancel. Install it yourself: $how" >&2
  exit 0
fi
echo "[kae] installing Debian's chromium and fonts-liberation for the UI browser test" >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade \
  "${packages[@]}" >&2
