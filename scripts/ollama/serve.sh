#!/usr/bin/env bash
# Starts a private Ollama server for tests and development, and prints its
# address. The server keeps its models, home and logs under .tmp/ollama/, so
# it never touches a user's ~/.ollama, and listens on 127.0.0.1 only.
#
# Usage: scripts/ollama/serve.sh [start|stop|status]     (default: start)
#   start  reuse the server of the pid file when it answers, else start one;
#          wait until /api/version answers; print OLLAMA_HOST=127.0.0.1:PORT
#   stop   stop the server of the pid file
#   status exit 0 when the server answers
# Env:  OLLAMA_PORT (default 11545), OLLAMA_BIN (default: build.sh's binary),
#       TOOLSEARCH_TMP (default <repo>/.tmp), OLLAMA_START_TIMEOUT (s, default 60)
#
# Example:  eval "$(scripts/ollama/serve.sh)" && export OLLAMA_HOST
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="${TOOLSEARCH_TMP:-$root/.tmp}"
port="${OLLAMA_PORT:-11545}"
dir="$tmp/ollama"
pidfile="$dir/ollama-$port.pid"
logfile="$dir/ollama-$port.log"
addr="127.0.0.1:$port"
timeout="${OLLAMA_START_TIMEOUT:-60}"

log() { echo "ollama-serve: $*" >&2; }

answers() { curl -fsS --max-time 2 "http://$addr/api/version" >/dev/null 2>&1; }

running_pid() {
	[[ -f "$pidfile" ]] || return 1
	local pid
	pid="$(cat "$pidfile")"
	[[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

cmd="${1:-start}"
case "$cmd" in
status)
	answers
	exit
	;;
stop)
	if pid="$(running_pid)"; then
		kill "$pid"
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
		log "stopped pid $pid"
	fi
	rm -f "$pidfile"
	exit 0
	;;
start) ;;
*)
	echo "usage: $0 [start|stop|status]" >&2
	exit 2
	;;
esac

if running_pid >/dev/null && answers; then
	log "reusing the server on $addr (pid $(cat "$pidfile"))"
	echo "OLLAMA_HOST=$addr"
	exit 0
fi
if answers; then
	log "something else already answers on $addr; choose another OLLAMA_PORT"
	exit 1
fi

bin="${OLLAMA_BIN:-}"
if [[ -z "$bin" ]]; then
	bin="$("$here/build.sh")"
fi
mkdir -p "$dir/home" "$dir/models"
log "starting $bin on $addr (log: $logfile)"
# setsid: the server outlives this script and is stopped by pid, not by the
# shell's job control. OLLAMA_NO_CLOUD: offline; nothing to sign in to.
HOME="$dir/home" OLLAMA_HOST="$addr" OLLAMA_MODELS="$dir/models" OLLAMA_NO_CLOUD=1 \
	setsid "$bin" serve >"$logfile" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$pidfile"

deadline=$((SECONDS + timeout))
until answers; do
	if ! kill -0 "$pid" 2>/dev/null; then
		log "the server exited; last lines of $logfile:"
		tail -n 20 "$logfile" >&2
		rm -f "$pidfile"
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		log "no answer on $addr after ${timeout}s; see $logfile"
		exit 1
	fi
	sleep 0.2
done
log "ready on $addr, pid $pid, version $(curl -fsS "http://$addr/api/version")"
echo "OLLAMA_HOST=$addr"
