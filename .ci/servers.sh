#!/usr/bin/env bash
# Fetches and prepares redis-server builds other than the embedded 7.0.15, from Debian's package registry, by
# package name. Nothing prebuilt comes from anywhere else.
#
#   .ci/servers.sh NAME...          prepare each server, print "NAME WRAPPER VERSION" per server on stdout
#   .ci/servers.sh --list           the names this script knows
#
# NAME is one of the rows of SERVERS below (redis-8.0, redis-8.6, valkey-8.1, valkey-9.1). The packages come from a
# newer Debian suite than this machine's, so their binaries need a newer C library than the one installed: each server
# gets its own folder with the suite's libc6 and the server's library dependencies unpacked by `dpkg -x`, and a
# wrapper, target/servers/NAME/redis-server, that execs the server under that folder's own loader:
#
#   ld-linux-x86-64.so.2 --library-path <the folder's lib dirs> --argv0 <binary> <binary> "$@"
#
# Point the tests at a wrapper with DISTLOCK_REDIS_SERVER=<wrapper> (see docs/compatibility.md).
#
# Idempotent: a wrapper that already answers --version is reused without touching the network; --refresh
# re-fetches. Everything lives under target/servers (ignored by git; `./mvnw clean` at the root removes it).
#
# DISTLOCK_SERVERS_DIR moves target/servers elsewhere; DISTLOCK_DEBIAN_MIRROR names another Debian mirror.
#
# Exit codes: 0 all prepared; 3 the package registry could not be reached (nothing else failed); 1 anything else.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${DISTLOCK_SERVERS_DIR:-$ROOT/target/servers}"
MIRROR="${DISTLOCK_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
UNREACHABLE=3

# name  suite  package  binary-in-package  expected-version-prefix
# Suite 'experimental' holds only the packages newer than unstable's: the server and its -tools package come from it,
# everything else (libc6, the libraries) from sid, as apt would install them.
SERVERS="
redis-8.0   trixie        redis-server   usr/bin/redis-server   5:8.0.
redis-8.6   experimental  redis-server   usr/bin/redis-server   5:8.6.
valkey-8.1  trixie        valkey-server  usr/bin/valkey-server  8.1.
valkey-9.1  sid           valkey-server  usr/bin/valkey-server  9.1.
"

log() { echo "servers.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

row() {
    awk -v n="$1" '$1 == n { print; found = 1 } END { exit !found }' <<<"$SERVERS"
}

# apt-get/apt-cache against one suite only, with private state: the machine's own apt setup is left alone.
apt_in() {
    local suite="$1" tool="$2"
    shift 2
    local dir="$OUT/.apt/$suite"
    "$tool" -q \
        -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$dir/lists" -o Dir::State::Status="$dir/status" \
        -o Dir::Cache="$dir/cache" \
        -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o Acquire::Languages=none -o Acquire::Retries=2 -o Acquire::http::Timeout=30 \
        -o Debug::NoLocking=true -o APT::Sandbox::User=root "$@"
}

# Downloads the suite's package index once per script run (apt keeps it if nothing changed).
declare -A UPDATED=()
update_suite() {
    local suite="$1" dir="$OUT/.apt/$1"
    [ -n "${UPDATED[$suite]:-}" ] && return 0
    [ -r "$KEYRING" ] || die "$KEYRING is missing: install the debian-archive-keyring package"
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
    touch "$dir/status"
    echo "deb [signed-by=$KEYRING] $MIRROR $suite main" >"$dir/sources.list"
    if [ "$suite" = experimental ]; then
        echo "deb [signed-by=$KEYRING] $MIRROR sid main" >>"$dir/sources.list"
    fi
    log "updating the package index of Debian $suite"
    if ! apt_in "$suite" apt-get update --error-on=any >"$dir/update.log" 2>&1; then
        cat "$dir/update.log" >&2
        if grep -qE "Could not resolve|Failed to fetch|Could not connect|Temporary failure|Connection failed|timed out" \
            "$dir/update.log"; then
            log "Debian's package registry ($MIRROR) is unreachable"
            exit "$UNREACHABLE"
        fi
        die "apt-get update for $suite failed (log above)"
    fi
    UPDATED[$suite]=1
}

candidate() {
    if [ "$1" = experimental ]; then
        # experimental is NotAutomatic (priority 1), so the policy's candidate is sid's: madison lists both
        apt_in "$1" apt-cache madison "$2" | awk -F'|' '$3 ~ /experimental/ { gsub(/ /, "", $2); print $2; exit }'
        return
    fi
    apt_in "$1" apt-cache policy "$2" | awk '/Candidate:/ { print $2 }'
}

# How apt is asked for package $3 of suite $1 whose server package is $2: from experimental (name/experimental) for
# the server and its -tools package, from the suite (for experimental: sid) for everything else.
apt_name() {
    if [ "$1" = experimental ] && { [ "$3" = "$2" ] || [ "$3" = "${2%-server}-tools" ]; }; then
        echo "$3/experimental"
    else
        echo "$3"
    fi
}

# The library names (first alternative of each) among a .deb's Depends and Pre-Depends, without versions.
library_deps() {
    { dpkg-deb -f "$1" Depends; dpkg-deb -f "$1" Pre-Depends; } \
        | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/:any//; s/[[:space:]]//g' \
        | grep -E '^lib' || true
}

# Downloads (into the suite's .deb cache, once) and unpacks into $2 the server package, its -tools package
# (where the binary is), libc6, and the closure of their library dependencies; lists "package version" in $3.
unpack_closure() {
    local suite="$1" root="$2" listing="$3" package="$4"
    local debs="$OUT/.debs/$suite"
    local -A seen=()
    local level=("$package" "${package%-server}-tools" libc6) next=() names=() files=() missing=() pkg file dep
    mkdir -p "$debs"
    while [ "${#level[@]}" -gt 0 ]; do
        names=()
        for pkg in "${level[@]}"; do
            seen[$pkg]=1
            names+=("$(apt_name "$suite" "$package" "$pkg")")
        done
        # one apt call per level: which file each package is, then fetch the ones not cached yet
        mapfile -t files < <(apt_in "$suite" apt-get download --print-uris "${names[@]}" | awk '{ print $2 }')
        [ "${#files[@]}" -eq "${#level[@]}" ] || die "Debian $suite lacks one of: ${level[*]}"
        missing=()
        for file in "${files[@]}"; do
            [ -s "$debs/$file" ] || missing+=("$(apt_name "$suite" "$package" "${file%%_*}")")
        done
        if [ "${#missing[@]}" -gt 0 ]; then
            log "downloading ${missing[*]} from Debian $suite"
            (cd "$debs" && apt_in "$suite" apt-get download "${missing[@]}") >"$root.download.log" 2>&1 \
                || { cat "$root.download.log" >&2; die "apt-get download from $suite failed"; }
        fi
        next=()
        for file in "${files[@]}"; do
            dpkg -x "$debs/$file" "$root"
            echo "$(dpkg-deb -f "$debs/$file" Package) $(dpkg-deb -f "$debs/$file" Version)" >>"$listing"
            for dep in $(library_deps "$debs/$file"); do
                if [ -z "${seen[$dep]:-}" ]; then
                    seen[$dep]=1
                    next+=("$dep")
                fi
            done
        done
        level=("${next[@]}")
    done
    rm -f "$root.download.log"
}

wrapper_works() {
    [ -x "$1" ] && "$1" --version >/dev/null 2>&1
}

prepare() {
    local name="$1" refresh="$2" line suite package binary expected dir wrapper
    line="$(row "$name")" || die "unknown server '$name'; known: $(awk 'NF { printf "%s ", $1 }' <<<"$SERVERS")"
    read -r _ suite package binary expected <<<"$line"
    dir="$OUT/$name"
    wrapper="$dir/redis-server"
    if [ "$refresh" = no ] && wrapper_works "$wrapper"; then
        log "$name: reusing $wrapper"
        echo "$name $wrapper $(cat "$dir/version")"
        return 0
    fi

    update_suite "$suite"
    local version
    version="$(candidate "$suite" "$package")"
    [ -n "$version" ] && [ "$version" != "(none)" ] || die "Debian $suite has no package $package"
    case "$version" in
        "$expected"*) ;;
        *) log "warning: Debian $suite now has $package $version, not $expected*: testing that instead;" \
            "rename the row in .ci/servers.sh and the README's tested-with table" ;;
    esac

    local staging="$dir.part"
    rm -rf "$staging"
    mkdir -p "$staging/root"
    log "$name: $package $version from Debian $suite"
    unpack_closure "$suite" "$staging/root" "$staging/packages.txt" "$package"

    local loader="$staging/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
    [ -x "$loader" ] || die "libc6 from $suite has no loader at ${loader#"$staging/"}"
    [ -e "$staging/root/$binary" ] || die "$package from $suite has no $binary"
    local final_root="$dir/root"
    local libpath="$final_root/usr/lib/x86_64-linux-gnu:$final_root/lib/x86_64-linux-gnu"
    cat >"$staging/redis-server" <<EOF
#!/bin/sh
# $name: $package $version from Debian $suite, run under that suite's own C library (written by .ci/servers.sh).
# exec keeps the pid: tests signal and probe the server by the pid they spawned.
exec "$final_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$libpath" \\
    --argv0 "$final_root/$binary" "$final_root/$binary" "\$@"
EOF
    chmod +x "$staging/redis-server"
    rm -rf "$dir"
    mv "$staging" "$dir"

    if "$final_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$libpath" --list \
        "$final_root/$binary" | grep -q "not found"; then
        "$final_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$libpath" --list \
            "$final_root/$binary" >&2
        die "$name: libraries missing (above)"
    fi
    local said
    said="$("$wrapper" --version 2>&1)" || die "$name: $wrapper --version failed: $said"
    echo "$version" >"$dir/version"
    log "$name: $said"
    echo "$name $wrapper $version"
}

main() {
    local refresh=no names=()
    for arg in "$@"; do
        case "$arg" in
            --list) awk 'NF { print $1 }' <<<"$SERVERS"; return 0 ;;
            --refresh) refresh=yes ;;
            -*) die "unknown option $arg" ;;
            *) names+=("$arg") ;;
        esac
    done
    [ "${#names[@]}" -gt 0 ] || die "name at least one server: $(awk 'NF { printf "%s ", $1 }' <<<"$SERVERS")"
    for name in "${names[@]}"; do
        prepare "$name" "$refresh"
    done
}

main "$@"
