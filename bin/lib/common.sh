# Shared by the scripts in bin/: where the project is, and building its jars when they are missing or older than
# the sources. Sourced, never run.
XD_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
XD_SINGLENODE_JAR="$XD_HOME/dist/target/xd.jar"
XD_SHELL_JAR="$XD_HOME/shell/target/xd-shell.jar"
XD_BENCHMARKS_JAR="$XD_HOME/benchmarks/target/benchmarks.jar"

# JVM options of an XD server when JAVA_OPTS is not set: a fixed heap, touched at start-up. A heap that grows while
# the stream runs costs a fresh page fault on every new page; on the virtual machines measured here that made
# direct binding at 1 000 bytes six times slower (1.5 M against 9-10 M msg/s).
XD_SERVER_JAVA_OPTS="-Xms1g -Xmx1g -XX:+AlwaysPreTouch"

# xd_build_if_needed JAR...: builds the project (no tests) unless every JAR exists and no source or pom is newer.
xd_build_if_needed() {
  local jar stale=""
  for jar in "$@"; do
    if [ ! -f "$jar" ] || [ -n "$(find "$XD_HOME" -path "$XD_HOME/.git" -prune -o -path '*/target' -prune -o -path '*/src/test' -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$jar" -print -quit)" ]; then
      stale="$jar"
      break
    fi
  done
  if [ -n "$stale" ]; then
    echo "Building XD (first run, or sources changed since $(basename "$stale") was built)..." >&2
    (cd "$XD_HOME" && ./mvnw -B -q -ntp install -DskipTests) >&2
    # Maven leaves an up-to-date jar untouched; mark every jar as newer than the sources it was just checked against
    touch "$@"
  fi
}

# xd_port_open HOST PORT: whether something accepts TCP connections there (bash's /dev/tcp, no tools needed).
xd_port_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# xd_free_port FROM TO: prints the first port from FROM to TO that nothing on 127.0.0.1 listens on; fails if none.
xd_free_port() {
  local port="$1"
  while xd_port_open 127.0.0.1 "$port"; do
    port=$((port + 1))
    [ "$port" -le "$2" ] || return 1
  done
  echo "$port"
}

# xd_java: the java command, from JAVA_HOME when set.
xd_java() {
  if [ -n "${JAVA_HOME:-}" ]; then
    echo "$JAVA_HOME/bin/java"
  else
    echo java
  fi
}
