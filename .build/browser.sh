#!/usr/bin/env bash
# The UI tests (UiTabSuite) load the Spark UI's KAE Shuffle tab in a real browser: Debian's
# chromium, headless. Part of README's test command, never of the quick start.
# What it changes on the machine, only when /usr/bin/chromium is missing and running as root:
# refreshes apt's package lists and installs the packages chromium and fonts-liberation (so
# screenshots have text) with apt-get --no-install-recommends. Where chromium needs newer
# versions of installed packages (shared libraries of the same Debian release), apt upgrades those
# and this script names them first. If anything fails, it says so and the browser test cancels
# with the reason; the rest of the suite runs. Set KAE_NO_INSTALL=1 to never change the machine.
set -uo pipefail
[ -x /usr/bin/chromium ] && exit 0
packages=(chromium fonts-liberation)
how="apt-get install --no-install-recommends ${packages[*]}"
if [ "${KAE_NO_INSTALL:-}" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[kae] chromium is missing: the UI browser test will cancel. Install it with: $how" >&2
  exit 0
fi
if ! apt-get update -qq >&2; then
  echo "[kae] apt-get update failed: the UI browser test will cancel. Install chromium: $how" >&2
  exit 0
fi
# A dry run first: "Inst name [installed version] ..." is an installed package apt would upgrade.
if ! plan=$(apt-get -s install --no-install-recommends "${packages[@]}" 2>&1); then
  echo "[kae] apt cannot install chromium here: the UI browser test will cancel." >&2
  echo "$plan" | tail -5 >&2
  exit 0
fi
upgrades=$(echo "$plan" | awk '/^Inst [^ ]+ \[/ {print $2}')
echo "[kae] installing Debian's chromium and fonts-liberation for the UI browser test" \
  "(no recommends${upgrades:+; upgrading, as chromium requires: $(echo $upgrades)})" >&2
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${packages[@]}" >&2; then
  echo "[kae] installing chromium failed: the UI browser test will cancel." >&2
fi
exit 0
