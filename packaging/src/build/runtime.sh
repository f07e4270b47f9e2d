#!/usr/bin/env bash
# Builds the image's runtime layer in STAGING/runtime: a JRE jlinked from this JDK with only the
# modules the provider's jars use (jdeps) plus EXTRA_MODULES, the Debian libraries that JRE and the
# native libraries inside the jars link against (copied from the installed Debian packages that
# ship them, with each package's copyright file), the files a non-root user needs, and the empty
# directories the container mounts over (/tmp, the state directory).
#
# usage: runtime.sh STAGING EXTRA_MODULES [JDK_HOME]   (default: the JDK of the javac on PATH)
set -euo pipefail
staging=$1
extra_modules=$2
runtime=$staging/runtime
java_home=$runtime/opt/java
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -n "${3:-}" ]]; then
  jdk_bin=$3/bin
else
  jdk_bin=$(dirname "$(readlink -f "$(command -v javac)")")
fi

rm -rf "$runtime" "$staging/natives"
mkdir -p "$runtime"
# Jib reads the module's class output, which this module (nothing but packaging) leaves empty
mkdir -p "$staging/../classes"

jars=("$staging/application/bigfleet-proxmox.jar")
classpath="$staging/libraries/lib/*:$staging/application/lib/*"
modules=$("$jdk_bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 17 --recursive \
  --class-path "$classpath" "${jars[@]}")
echo "runtime: modules $modules,$extra_modules"

# --compress=2 zips the module image (the class-data archive maps the classes a start needs anyway).
# java.desktop is there for java.beans, which some libraries name; its AWT, font, sound and image
# native libraries (and the X11 libraries they would pull in) are left out: nothing draws here.
"$jdk_bin/jlink" --add-modules "$modules,$extra_modules" --strip-debug --no-header-files --no-man-pages \
  --compress=2 --exclude-files='glob:/java.desktop/lib/lib*.so' --output "$java_home"
# the symbol table is for debuggers; the dynamic symbols the JVM resolves stay
strip --strip-unneeded "$java_home/lib/server/libjvm.so"
# Jib leaves symbolic links out of a layer: the legal notices become copies
find "$java_home" -type l | while read -r link; do
  cp --remove-destination "$(readlink -f "$link")" "$link"
done

# the native libraries the jars unpack at run time (SQLite's JDBC driver, Netty's transports)
mkdir -p "$staging/natives"
for jar in "$staging"/libraries/lib/*.jar; do
  unzip -q -o -d "$staging/natives" "$jar" 'org/sqlite/native/Linux/x86_64/*' \
    'META-INF/native/*linux_x86_64*' 2>/dev/null || true
done

# every shared library those link against that neither the JRE nor the jar brings
elves=$(find "$java_home" "$staging/natives" -type f \( -name '*.so' -o -path '*/bin/*' \))
libraries=$(for elf in $elves; do ldd "$elf" 2>/dev/null || true; done |
  awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' |
  grep -v -e "^$java_home" -e "^$staging" | sort -u)

packages=()
for library in $libraries; do
  file=$(readlink -f "$library")
  owner=$(dpkg -S "$library" 2>/dev/null || dpkg -S "$file")
  packages+=("${owner%%:*}")
  case "$library" in
    */ld-linux-*) target=$runtime/lib64/$(basename "$library") ;;
    *) target=$runtime/lib/x86_64-linux-gnu/$(basename "$library") ;;
  esac
  mkdir -p "$(dirname "$target")"
  cp "$file" "$target"
done
# the JRE itself comes from the JDK's Debian package
packages+=("$(dpkg -S "$(readlink -f "$jdk_bin/../jmods/java.base.jmod")" | cut -d: -f1)")

doc=$runtime/usr/share/doc
mkdir -p "$doc/bigfleet-proxmox"
for package in $(printf '%s\n' "${packages[@]}" | sort -u); do
  mkdir -p "$doc/$package"
  cp "/usr/share/doc/$package/copyright" "$doc/$package/copyright"
  dpkg-query -W -f '${Package} ${Version}\n' "$package" >>"$doc/bigfleet-proxmox/runtime-packages"
done

cp -r "$src/image/." "$runtime/"
# mount points: a runtime mounts over them, and a read-only root cannot create them
mkdir -p "$runtime/tmp" "$runtime/proc" "$runtime/dev" "$runtime/sys" "$runtime/var/lib/bigfleet-proxmox"
echo "runtime: $(du -sh "$runtime" | cut -f1) ($(sort -u "$doc/bigfleet-proxmox/runtime-packages" | tr '\n' ' '))"
