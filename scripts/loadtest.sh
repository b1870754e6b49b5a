#!/usr/bin/env bash
# The login benchmark of docs/PERFORMANCE.md: a release `latchkey serve` (or two sharing PostgreSQL) under
# `latchkey loadtest`, which reads the servers' CPU time from /metrics before and after the logins and measures one
# raw P-256 verification first, so the server's cost per login comes out in the same run as its baseline.
#
#   scripts/loadtest.sh [--binary PATH] [--client PATH] [--profile native|conformance] [--driver wire|client]
#                       [--clients N] [--duration S] [--postgres URL --instances N] [--event-loops N] [--perf FILE] [--counts]
#
# --client PATH runs the load generator from another build (default: the server's binary), so that an older server is
# loaded by the same client. --driver picks how the load generator signs in (default wire: requests written as bytes;
# client: through the client library apps use). --event-loops N runs each server with that many event loops (default: the
# server's, one per core; with several instances, each gets its share of the cores, as it would on a machine of its own).
# With --postgres served by the one PostgreSQL running on this machine, its own CPU per login is reported too
# (postgres_cpu_us_per_login).
# --perf FILE records the (first) server with `perf record -g` during the logins (Debian's linux-perf).
# --counts counts, in the (first) server, calls of malloc, swift_retain and swift_release, Swift Concurrency jobs run
# (swift_job_run, and swift_job_run_on_task_executor for the jobs a task executor runs) (perf uprobes, as root), system
# calls and futex calls (threads meeting on a lock) per login: figures that do not move with the host's load, to compare
# builds by. The probes slow the server down, so the CPU and latency figures of a counting run are not comparable with
# others.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=""
client=""
profile=native
driver=()
clients=16
duration=10
postgres=""
instances=1
perf_out=""
counts=""
event_loops=()
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --client) client=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        --driver) driver=(--driver "$2"); shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --postgres) postgres=$2; shift 2 ;;
        --instances) instances=$2; shift 2 ;;
        --event-loops) event_loops=(--event-loops "$2"); shift 2 ;;
        --perf) perf_out=$2; shift 2 ;;
        --counts) counts=1; shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
if [ -z "$binary" ]; then
    swift build -c release --product latchkey >&2
    binary="$(swift build -c release --show-bin-path)/latchkey"
fi

client=${client:-$binary}
work=$(mktemp -d /tmp/latchkey-loadtest.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -z "$counts" ] || remove_probes
    rm -rf "$work"
}
trap cleanup EXIT
remove_probes() {
    perf probe -q -d 'probe_libc:latchkey_*' -d 'probe_libswiftCore:latchkey_*' -d 'probe_libswift_Concurrency:latchkey_*' 2>/dev/null || true
}

database=${postgres:-$work/latchkey.sqlite}
if [ "${#event_loops[@]}" -eq 0 ] && [ "$instances" -gt 1 ]; then
    share=$(( $(nproc) / instances ))
    event_loops=(--event-loops $(( share > 0 ? share : 1 )))
fi
# /metrics needs a bearer token; the load generator reads the servers' CPU time there.
metrics_token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$metrics_token" >"$work/metrics-token"
metrics_flags=(--metrics-token-file "$work/metrics-token")
# A build from before the token (and before process_cpu_seconds_total): measured from /proc only.
"$binary" serve --help 2>&1 | grep -q -- --metrics-token-file || metrics_flags=()
servers=()
for index in $(seq 1 "$instances"); do
    port=$((18700 + index))
    # Every instance accepts every instance's origin, as instances behind one load balancer would share one.
    origins=()
    for other in $(seq 1 "$instances"); do origins+=(--origin "http://localhost:$((18700 + other))"); done
    "$binary" serve --port "$port" --host 127.0.0.1 --database "$database" --rp-id localhost "${origins[@]}" \
        --rate-limit 0 "${metrics_flags[@]}" "${event_loops[@]}" >"$work/server-$index.log" 2>&1 &
    pids+=($!)
    servers+=(--server "http://localhost:$port")
done
for index in $(seq 1 "$instances"); do
    for _ in $(seq 1 100); do
        curl -fs "http://localhost:$((18700 + index))/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
done

if [ -n "$perf_out" ]; then
    # Start sampling after the registrations (about a second in) and stop before the end.
    ( sleep 2; perf record -F 999 -g -p "${pids[0]}" -o "$perf_out" -- sleep $((duration - 3)) >/dev/null 2>&1 ) &
fi
# The servers' CPU time from /proc as well (utime + stime, in clock ticks), around the whole run: the same figure as
# `server_cpu_us_per_login` for a server whose /metrics lacks process_cpu_seconds_total (an older build).
proc_cpu() {
    local total=0
    for pid in "${pids[@]}"; do
        read -r -a stat <"/proc/$pid/stat"
        total=$((total + stat[13] + stat[14]))
    done
    echo "$total"
}
if [ -n "$counts" ]; then
    library() { ldd "$binary" | awk -v name="$1" '$1 ~ name {print $3}'; }
    remove_probes
    perf probe -q -x "$(library '^libc\\.so')" --add 'latchkey_malloc=malloc'
    perf probe -q -x "$(library '^libswiftCore\\.so')" --add 'latchkey_retain=swift_retain' --add 'latchkey_release=swift_release'
    perf probe -q -x "$(library '^libswift_Concurrency\\.so')" --add 'latchkey_job=swift_job_run' \
        --add 'latchkey_task_executor_job=swift_job_run_on_task_executor'
    perf stat -x, -o "$work/counts" -p "${pids[0]}" -e probe_libc:latchkey_malloc,probe_libswiftCore:latchkey_retain \
        -e probe_libswiftCore:latchkey_release,probe_libswift_Concurrency:latchkey_job \
        -e probe_libswift_Concurrency:latchkey_task_executor_job \
        -e raw_syscalls:sys_enter,syscalls:sys_enter_futex &
    counter=$!
    sleep 0.5
fi
# PostgreSQL's CPU time, when it runs here: its postmaster's own and reaped children's, and its live backends'.
# Only when exactly one PostgreSQL runs here: with several, which one serves the URL is not known.
postmaster=""
if [ -n "$postgres" ]; then
    postmasters=()
    for pid in $(pgrep -x postgres || true); do
        [ "$(ps -o comm= -p "$(ps -o ppid= -p "$pid" | tr -d ' ')" 2>/dev/null)" = postgres ] || postmasters+=("$pid")
    done
    [ "${#postmasters[@]}" -ne 1 ] || postmaster=${postmasters[0]}
fi
postgres_cpu() {
    local total stat child
    read -r -a stat <"/proc/$postmaster/stat"
    total=$((stat[13] + stat[14] + stat[15] + stat[16]))
    for child in $(pgrep -P "$postmaster"); do
        read -r -a stat <"/proc/$child/stat" 2>/dev/null || continue
        total=$((total + stat[13] + stat[14]))
    done
    echo "$total"
}
[ -z "$postmaster" ] || postgres_before=$(postgres_cpu)
before=$(proc_cpu)
"$client" loadtest "${servers[@]}" --clients "$clients" --duration "$duration" --profile "$profile" ${driver[@]+"${driver[@]}"} --metrics-token "$metrics_token" | tee "$work/result"
after=$(proc_cpu)
[ -z "$postmaster" ] || postgres_after=$(postgres_cpu)
logins=$(sed -n 's/^logins: \([0-9]*\) in.*/\1/p' "$work/result")
if [ -n "$counts" ]; then
    kill -INT "$counter"
    wait "$counter" || true
    # perf stat -x, writes count,unit,event,...: one line per event.
    awk -F, -v logins="$logins" -v instances="$instances" '
        $3 ~ /latchkey_malloc$/ { name = "mallocs" } $3 ~ /latchkey_retain$/ { name = "retains" }
        $3 ~ /latchkey_release$/ { name = "releases" }
        $3 ~ /latchkey_(task_executor_)?job$/ { jobs += $1; next }
        $3 == "raw_syscalls:sys_enter" { name = "syscalls" }
        $3 == "syscalls:sys_enter_futex" { name = "futexes" }
        name != "" { printf "server_%s_per_login=%.1f\n", name, $1 * instances / logins; name = "" }
        END { printf "server_jobs_per_login=%.1f\n", jobs * instances / logins }
    ' "$work/counts"
fi
ticks=$(getconf CLK_TCK)
if [ -n "$logins" ] && [ "$logins" -gt 0 ]; then
    echo "proc_server_cpu_us_per_login=$(( (after - before) * 1000000 / ticks / logins ))"
    [ -z "$postmaster" ] || echo "postgres_cpu_us_per_login=$(( (postgres_after - postgres_before) * 1000000 / ticks / logins ))"
fi
for pid in "${pids[@]}"; do
    echo "server_peak_rss_kb=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")"
done
