#!/usr/bin/env bash
# Packs the contention harness for a machine that has no Java, Maven or Redis (the lent many-core machine): one
# self-contained jar (the embedded redis-server is inside it) and a jlinked JRE, in one xz-compressed tar under .device/
# (git-ignored, so the device tool can carry it). Usage, from the repository root:
#   bash lock-benchmarks/device/bundle.sh
# then on the other machine, from the repository root of the carried copy:
#   bash lock-benchmarks/device/run.sh [harness options, e.g. --only contention]
set -euo pipefail
cd "$(dirname "$0")/../.."

out=.device
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

./mvnw -B -q -ntp -pl lock-benchmarks -am -DskipTests -Pharness-jar package

# Stored without compression, so xz sees the class files themselves and packs them far smaller than zip did.
mkdir -p "$work/bundle" "$work/unzipped"
(cd "$work/unzipped" && jar xf "$OLDPWD/lock-benchmarks/target/contention-harness.jar")
jar --create --no-compress --file "$work/bundle/contention-harness.jar" \
    --manifest "$work/unzipped/META-INF/MANIFEST.MF" -C "$work/unzipped" .

jlink --add-modules java.base,java.desktop,java.logging,java.management,java.naming,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.zipfs \
    --strip-debug --no-header-files --no-man-pages --output "$work/bundle/jre"

mkdir -p "$out"
tar -C "$work/bundle" -cf - . | xz -T0 -6 > "$out/harness.tar.xz"
echo "packed $(du -h "$out/harness.tar.xz" | cut -f1) into $out/harness.tar.xz (run: bash lock-benchmarks/device/run.sh)"
