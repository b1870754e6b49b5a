#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests (LatchkeyStore's PostgresStore, CI).
#
#   scripts/postgres.sh start DIR PORT   initdb into DIR (once; DIR becomes the data directory, with the unix
#                                         socket and the server log inside), start on 127.0.0.1:PORT, create the
#                                         database latchkey_test and print its URL on stdout:
#                                         postgres://USER@127.0.0.1:PORT/latchkey_test
#                                         The server also takes TLS, with a certificate for `localhost` from a test CA
#                                         the script makes (DIR/tls/ca.pem), for the TLS tests.
#   scripts/postgres.sh stop DIR         stop the server whose cluster lives in DIR
#
# Installs Debian's `postgresql` package when initdb/pg_ctl are missing. PostgreSQL refuses to run as root,
# so when invoked as root the server runs as the `postgres` system user, DIR is made its own and any ancestor of DIR
# that user cannot pass gets search permission (o+x).
# Authentication is `trust`, for loopback connections only; the server listens on 127.0.0.1 alone and keeps its
# unix socket inside DIR. Durability is switched off (fsync, synchronous_commit): this is a test server.
# Everything except the URL goes to stderr, so `URL=$(scripts/postgres.sh start …)` works.
set -euo pipefail

DATABASE=latchkey_test

log() { echo "postgres.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
    cat >&2 <<'EOF'
usage: scripts/postgres.sh start DIR PORT
       scripts/postgres.sh stop DIR
EOF
    exit 2
}

# Sets BIN to a directory holding initdb and pg_ctl: the PATH's, else the newest /usr/lib/postgresql/*/bin.
find_bin() {
    BIN=""
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        BIN=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
        return 0
    fi
    local candidate
    while IFS= read -r candidate; do
        if [[ -x "$candidate/initdb" && -x "$candidate/pg_ctl" ]]; then BIN=$candidate; fi
    done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V)
    [[ -n "$BIN" ]]
}

ensure_postgres_installed() {
    find_bin && return 0
    [[ $EUID -eq 0 ]] || die "initdb/pg_ctl not found; install Debian's postgresql package (as root: apt-get install -y postgresql)"
    log "installing Debian's postgresql package"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y postgresql >&2
    find_bin || die "postgresql installed but initdb/pg_ctl were not found under /usr/lib/postgresql/*/bin"
}

# Sets RUN_USER: who runs the server. Root hands it to the `postgres` system user.
choose_user() {
    if [[ $EUID -eq 0 ]]; then
        RUN_USER=postgres
        if ! id -u "$RUN_USER" >/dev/null 2>&1; then
            log "creating system user $RUN_USER"
            useradd --system --home-dir /var/lib/postgresql --shell /bin/bash "$RUN_USER"
        fi
    else
        RUN_USER=$(id -un)
    fi
}

# Runs a command as RUN_USER (directly when that is already us).
as_user() {
    if [[ $EUID -eq 0 ]]; then
        if command -v runuser >/dev/null 2>&1; then
            runuser -u "$RUN_USER" -- "$@"
        else
            su -s /bin/sh "$RUN_USER" -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

absolute() { mkdir -p "$1" && (cd "$1" && pwd -P); }

# Root runs the server as RUN_USER, which must be able to reach DIR: grant search (not read) permission on any
# ancestor it cannot pass, e.g. the 0700 directory that `mktemp -d` makes.
open_path_to() {
    local path=$1
    while [[ "$path" != "/" ]]; do
        path=$(dirname "$path")
        if ! as_user test -x "$path"; then
            log "granting search permission on $path to others, so that $RUN_USER can reach the cluster"
            chmod o+x "$path"
        fi
    done
}

# Makes DIR/ca.pem (a test CA) and DIR/server.pem, DIR/server.key (a certificate for `localhost` only, from that CA),
# once; the key is the server's user's alone, as PostgreSQL requires.
make_tls() {
    local tls=$1
    [[ -f "$tls/server.key" ]] && return 0
    command -v openssl >/dev/null 2>&1 || die "openssl not found (Debian's openssl package)"
    mkdir -p "$tls"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 -subj "/CN=Latchkey test CA" \
        -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null || die "openssl could not make the test CA"
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
        -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null || die "openssl could not make the server key"
    printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 30 \
        -extfile "$tls/server.ext" -out "$tls/server.pem" 2>/dev/null || die "openssl could not sign the server certificate"
    if [[ $EUID -eq 0 ]]; then chown -R "$RUN_USER": "$tls"; fi
    chmod 600 "$tls/server.key" "$tls/ca.key"
    chmod 644 "$tls/ca.pem" "$tls/server.pem"
}

start() {
    local dir port
    [[ $# -eq 2 ]] || usage
    port=$2
    if ! [[ "$port" =~ ^[0-9]+$ ]] || (( port < 1 || port > 65535 )); then
        die "PORT must be a number from 1 to 65535, got '$port'"
    fi
    [[ "$1" != *"'"* ]] || die "DIR must not contain a single quote"
    ensure_postgres_installed
    choose_user
    dir=$(absolute "$1")
    local socket=$dir/socket logfile=$dir/postgres.log
    if [[ $EUID -eq 0 ]]; then
        chown "$RUN_USER": "$dir"
        open_path_to "$dir"
    fi
    as_user test -w "$dir" || die "$RUN_USER cannot write to $dir"

    if [[ ! -f "$dir/PG_VERSION" ]]; then
        [[ -z "$(ls -A "$dir")" ]] || die "$dir is neither empty nor a cluster made by this script"
        log "initdb into $dir (superuser $RUN_USER, trust auth for loopback)"
        local output
        output=$(as_user "$BIN/initdb" --pgdata="$dir" --username="$RUN_USER" --auth=trust --encoding=UTF8 --no-locale 2>&1) \
            || { echo "$output" >&2; die "initdb failed"; }
        as_user mkdir -p "$socket"
        echo "include_if_exists = 'latchkey.conf'" | as_user tee -a "$dir/postgresql.conf" >/dev/null
    fi
    make_tls "$dir/tls"
    # Written on every start so that the port given now is the one used. max_connections: the parallel test run starts a
    # hundred PostgreSQL-backed servers at once, each with a pool of up to 8; at 200 the cluster turned connections away
    # ("too many clients") and tests waited out their store's bound.
    as_user tee "$dir/latchkey.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$socket'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 500
ssl = on
ssl_cert_file = '$dir/tls/server.pem'
ssl_key_file = '$dir/tls/server.key'
EOF

    if as_user "$BIN/pg_ctl" --pgdata="$dir" status >/dev/null 2>&1; then
        log "already running; restarting to apply the configuration"
        as_user "$BIN/pg_ctl" --pgdata="$dir" --mode=fast --wait restart --log="$logfile" >&2 \
            || { tail -n 20 "$logfile" >&2; die "pg_ctl restart failed"; }
    else
        as_user "$BIN/pg_ctl" --pgdata="$dir" --wait --timeout=60 --log="$logfile" start >&2 \
            || { tail -n 20 "$logfile" >&2; die "pg_ctl start failed (is port $port taken?)"; }
    fi

    local tries=0
    until as_user "$BIN/pg_isready" --host=127.0.0.1 --port="$port" --dbname=postgres >/dev/null 2>&1; do
        tries=$((tries + 1))
        (( tries < 60 )) || { tail -n 20 "$logfile" >&2; die "server did not become ready on 127.0.0.1:$port"; }
        sleep 0.5
    done

    local exists
    exists=$(as_user "$BIN/psql" --host=127.0.0.1 --port="$port" --username="$RUN_USER" --dbname=postgres \
        --no-psqlrc --tuples-only --no-align \
        --command="SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")
    if [[ "$exists" != "1" ]]; then
        as_user "$BIN/createdb" --host=127.0.0.1 --port="$port" --username="$RUN_USER" "$DATABASE"
    fi
    log "ready on 127.0.0.1:$port (log: $logfile)"
    echo "postgres://$RUN_USER@127.0.0.1:$port/$DATABASE"
}

stop() {
    local dir
    [[ $# -eq 1 ]] || usage
    [[ -d "$1" ]] || die "no such directory: $1"
    dir=$(cd "$1" && pwd -P)
    [[ -f "$dir/PG_VERSION" ]] || die "no cluster in $dir"
    find_bin || die "pg_ctl not found"
    choose_user
    if as_user "$BIN/pg_ctl" --pgdata="$dir" status >/dev/null 2>&1; then
        as_user "$BIN/pg_ctl" --pgdata="$dir" --mode=fast --wait stop >&2
    else
        log "not running ($dir)"
    fi
}

[[ $# -ge 1 ]] || usage
command=$1
shift
case "$command" in
    start) start "$@" ;;
    stop) stop "$@" ;;
    *) usage ;;
esac
